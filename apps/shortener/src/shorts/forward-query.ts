// A short's forwardQuery (Shlink's; docs/adr/0268): the visit's query string appended to the URL
// the visit is sent to. As Shlink merges them: the target's own parameters first, then the
// visit's, a parameter the target also has taking the visit's value (the target's is dropped);
// the target's fragment stays last. Done on the raw text, so each parameter is sent exactly as
// it came (no decoding and encoding again): the redirect's hot path pays a few string scans, and
// nothing when the visit has no query.

/** A parameter's name as compared: decoded (`+` is a space), or the raw text if it does not decode. */
function nameOf(pair: string): string {
  const eq = pair.indexOf("=");
  const raw = (eq === -1 ? pair : pair.slice(0, eq)).replaceAll("+", " ");
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** `url` with the visit's `query` (the text after "?", without it) merged into its query. */
export function forwardedUrl(url: string, query: string): string {
  if (query === "") return url;
  const hashAt = url.indexOf("#");
  const fragment = hashAt === -1 ? "" : url.slice(hashAt);
  const beforeFragment = hashAt === -1 ? url : url.slice(0, hashAt);
  const queryAt = beforeFragment.indexOf("?");
  const own = queryAt === -1 ? "" : beforeFragment.slice(queryAt + 1);
  const base = queryAt === -1 ? beforeFragment : beforeFragment.slice(0, queryAt);
  const visit = query.split("&").filter((pair) => pair !== "");
  if (visit.length === 0) return url;
  let kept = own;
  if (own !== "") {
    const names = new Set(visit.map(nameOf));
    kept = own
      .split("&")
      .filter((pair) => pair !== "" && !names.has(nameOf(pair)))
      .join("&");
  }
  const merged = kept === "" ? visit.join("&") : `${kept}&${visit.join("&")}`;
  return `${base}?${merged}${fragment}`;
}
