// The page a protected short answers instead of its redirect (docs/adr/0173): a plain HTML form,
// no script, that posts the password back to the short's own URL. Its one inline style is
// allowed by hash, so the Content-Security-Policy allows nothing else at all.
import { createHash } from "node:crypto";
import { PASSWORD_LENGTH } from "@app/schemas/shortener";

const STYLE = `
*{box-sizing:border-box}
html{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;font-size:18px;line-height:1.5;color:#1a1a1a;background:#f4f5f7}
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;padding:1rem}
main{width:100%;max-width:24rem;background:#fff;border-radius:.75rem;padding:1.5rem;box-shadow:0 1px 4px rgba(0,0,0,.12)}
h1{font-size:1.4rem;margin:0 0 .5rem}
p{margin:0 0 1rem}
label{display:block;font-weight:600;margin-bottom:.25rem}
input{width:100%;font:inherit;padding:.6rem .75rem;border:1px solid #8a8f98;border-radius:.5rem}
button{width:100%;font:inherit;font-weight:600;margin-top:1rem;padding:.7rem;border:0;border-radius:.5rem;background:#1f5fd6;color:#fff;cursor:pointer}
.message{color:#a01818;font-weight:600}
@media (prefers-color-scheme:dark){html{color:#eee;background:#15171a}main{background:#22252a;box-shadow:none}input{background:#15171a;color:#eee}.message{color:#ff8a8a}}
`;

/**
 * No script, no outside resource; only the style above. form-action must let the browser follow
 * the 302 that a right password answers (Chromium checks redirects of a form post against it),
 * and the target may be any http(s) URL.
 */
export const PASSWORD_FORM_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash("sha256").update(STYLE).digest("base64")}'`,
  "form-action 'self' http: https:",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join("; ");

/**
 * The form page; `message` (wrong password, too many attempts) is shown above the field, and
 * `referer` (the Referer the short was opened with) rides along, so the visit keeps it.
 */
export function passwordForm({ message, referer }: { message?: string; referer?: string } = {}): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Password required</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>Password required</h1>
<p>This link is protected. Enter its password to continue.</p>
${message === undefined ? "" : `<p class="message" role="alert">${escapeHtml(message)}</p>\n`}<form method="post">
<label for="password">Password</label>
<input id="password" name="password" type="password" required autofocus autocomplete="current-password" maxlength="${PASSWORD_LENGTH.max}">${referer ? `\n<input type="hidden" name="referer" value="${escapeHtml(referer)}">` : ""}
<button type="submit">Continue</button>
</form>
</main>
</body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
