// Where the signed-in token is kept: in localStorage, as Shlink's own host app (shlink-web-client)
// keeps its servers, under its key and in its shape (`shlink.servers`: servers by id, each with
// its name, URL and apiKey), with one server, this one (docs/adr/0262). Signing out removes it.

const SERVERS_KEY = "shlink.servers";
const SERVER_ID = "this-service";

type Server = { id: string; name: string; url: string; apiKey: string };

export function storedApiKey(): string | undefined {
  try {
    const servers = JSON.parse(localStorage.getItem(SERVERS_KEY) ?? "{}") as Record<string, Server>;
    const key = servers[SERVER_ID]?.apiKey;
    return typeof key === "string" && key !== "" ? key : undefined;
  } catch {
    return undefined;
  }
}

export function storeApiKey(apiKey: string): void {
  const server: Server = { id: SERVER_ID, name: location.host, url: location.origin, apiKey };
  localStorage.setItem(SERVERS_KEY, JSON.stringify({ [SERVER_ID]: server }));
}

export function forgetApiKey(): void {
  localStorage.removeItem(SERVERS_KEY);
}
