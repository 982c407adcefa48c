// /manage: a sign-in form of ours in front of Shlink's web component (docs/adr/0262). The form
// and React load first; the component, its charts and its map come as a chunk of their own once
// a token is in (the token kept as in token-storage.ts).
import "@fortawesome/fontawesome-svg-core/styles.css";
import "leaflet/dist/leaflet.css";
import "./tailwind.css";
import { config } from "@fortawesome/fontawesome-svg-core";
import { type FormEvent, lazy, StrictMode, Suspense, useState } from "react";
import { createRoot } from "react-dom/client";
import { forgetApiKey, storeApiKey, storedApiKey } from "./token-storage.ts";

// Font Awesome would add its CSS as a <style> element, which the page's CSP refuses: it comes
// from the stylesheet above instead.
config.autoAddCss = false;

const Manage = lazy(() => import("./manage.tsx"));

/** What a token gets from the API: refused (401/403), or anything else, which the component shows. */
async function refused(apiKey: string): Promise<boolean> {
  try {
    const answer = await fetch("/rest/v3/short-urls?itemsPerPage=1", { headers: { "X-Api-Key": apiKey } });
    return answer.status === 401 || answer.status === 403;
  } catch {
    return false;
  }
}

function SignIn({ onSignIn }: { onSignIn: (apiKey: string) => void }) {
  const [apiKey, setApiKey] = useState("");
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const key = apiKey.trim();
    if (!key) return;
    setBusy(true);
    setError(undefined);
    if (await refused(key)) {
      setBusy(false);
      setError("This token is not accepted.");
      return;
    }
    onSignIn(key);
  };
  return (
    <main className="flex min-h-full items-center justify-center p-4">
      <form
        className="w-full max-w-md rounded-md border border-lm-border bg-lm-primary p-6 shadow-sm flex flex-col gap-4"
        aria-label="Sign in"
        onSubmit={submit}
      >
        <h1 className="text-2xl">Manage links</h1>
        <label className="flex flex-col gap-1" htmlFor="api-key">
          <span>API token</span>
          <input
            id="api-key"
            name="apiKey"
            type="password"
            autoComplete="current-password"
            required
            className="rounded-md border border-lm-input-border px-3 py-1.5 focus-ring"
            value={apiKey}
            onChange={(event) => setApiKey(event.target.value)}
          />
        </label>
        <p className="text-sm text-placeholder">
          One of your shortener tokens (as for <code>Authorization: Bearer</code>). It is kept in this browser
          until you sign out.
        </p>
        {error && (
          <p role="alert" className="text-danger">
            {error}
          </p>
        )}
        <button
          type="submit"
          disabled={busy}
          className="rounded-md bg-lm-brand px-4 py-1.5 text-white hover:bg-lm-brand-dark focus-ring disabled:opacity-60"
        >
          Sign in
        </button>
      </form>
    </main>
  );
}

function App() {
  const [apiKey, setApiKey] = useState(storedApiKey);
  if (!apiKey)
    return (
      <SignIn
        onSignIn={(key) => {
          storeApiKey(key);
          setApiKey(key);
        }}
      />
    );
  return (
    <Suspense fallback={<p className="p-4">Loading…</p>}>
      <Manage
        apiKey={apiKey}
        onSignOut={() => {
          forgetApiKey();
          setApiKey(undefined);
        }}
      />
    </Suspense>
  );
}

const root = document.getElementById("root");
if (root)
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
