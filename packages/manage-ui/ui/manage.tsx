// The signed-in page: a header of ours and Shlink's web component, its routes under /manage, its
// API client Shlink's SDK talking to /rest/v3 of this origin with the token as X-Api-Key.
import { ShlinkApiClient } from "@shlinkio/shlink-js-sdk";
import { FetchHttpClient } from "@shlinkio/shlink-js-sdk/fetch";
import { ShlinkWebComponent, type TagColorsStorage } from "@shlinkio/shlink-web-component";
import { useEffect, useMemo, useState } from "react";
import { BrowserRouter, Route, Routes } from "react-router";

type Version = `${bigint}.${bigint}.${bigint}` | "latest";

/** Tag colors kept where shlink-web-client keeps them. */
const tagColorsStorage: TagColorsStorage = {
  getTagColors: () => {
    try {
      return JSON.parse(localStorage.getItem("shlink.colors") ?? "{}");
    } catch {
      return {};
    }
  },
  storeTagColors: (colors) => localStorage.setItem("shlink.colors", JSON.stringify(colors)),
};

export default function Manage({ apiKey, onSignOut }: { apiKey: string; onSignOut: () => void }) {
  const apiClient = useMemo(
    () => new ShlinkApiClient(new FetchHttpClient(), { baseUrl: location.origin, apiKey }),
    [apiKey],
  );
  // The component enables features by the server's version: health's, else the latest.
  const [version, setVersion] = useState<Version>();
  useEffect(() => {
    let current = true;
    apiClient.health().then(
      ({ version }) =>
        current && setVersion(/^\d+\.\d+\.\d+$/.test(version) ? (version as Version) : "latest"),
      () => current && setVersion("latest"),
    );
    return () => {
      current = false;
    };
  }, [apiClient]);
  return (
    <>
      <header className="fixed top-0 inset-x-0 z-1000 h-(--header-height) flex items-center justify-between px-4 bg-lm-main dark:bg-dm-main text-white">
        <span className="font-medium">Manage links</span>
        <button
          type="button"
          className="rounded-md px-3 py-1 hover:bg-white/15 focus-ring"
          onClick={onSignOut}
        >
          Sign out
        </button>
      </header>
      <div className="pt-(--header-height) h-full">
        {/* The component's routes are relative to the route it is mounted on (as shlink-web-client
            mounts it under /server/:id/*): without one, its own router matches none of /manage/…. */}
        {version && (
          <BrowserRouter>
            <Routes>
              <Route
                path="/manage/*"
                element={
                  <ShlinkWebComponent
                    serverVersion={version}
                    apiClient={apiClient}
                    routesPrefix="/manage"
                    tagColorsStorage={tagColorsStorage}
                  />
                }
              />
            </Routes>
          </BrowserRouter>
        )}
      </div>
    </>
  );
}
