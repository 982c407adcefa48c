// The logins of connected calendar accounts, sealed at rest (docs/adr/0255): AES-256-GCM under a
// key derived from CREDENTIALS_KEY, the credential's id as associated data (a sealed login copied
// onto another row does not open), and the key's fingerprint beside it, so a rotation knows what
// to seal again and a start knows whether its key opens what is stored.
import type { PrismaClient } from "@app/db";
import { deriveKey, keyFingerprint, seal, UnsealError, unseal } from "../sealing.ts";

export interface Login {
  username: string;
  password: string;
}

export interface CredentialKeys {
  current: Buffer;
  /** CREDENTIALS_KEY_PREVIOUS, during a rotation. */
  previous?: Buffer | undefined;
}

const PURPOSE = "scheduling/calendars/login/v1";

/** The keys of the configuration, or undefined when CREDENTIALS_KEY is unset. */
export function credentialKeys(config: {
  CREDENTIALS_KEY?: string | undefined;
  CREDENTIALS_KEY_PREVIOUS?: string | undefined;
}): CredentialKeys | undefined {
  if (!config.CREDENTIALS_KEY) return undefined;
  return {
    current: deriveKey(config.CREDENTIALS_KEY, PURPOSE, "CREDENTIALS_KEY"),
    previous: config.CREDENTIALS_KEY_PREVIOUS
      ? deriveKey(config.CREDENTIALS_KEY_PREVIOUS, PURPOSE, "CREDENTIALS_KEY_PREVIOUS")
      : undefined,
  };
}

const associated = (credentialId: number) => `credential:${credentialId}`;

export function sealLogin(
  keys: CredentialKeys,
  credentialId: number,
  login: Login,
): { secret: string; keyId: string } {
  return {
    secret: seal(keys.current, associated(credentialId), JSON.stringify(login)),
    keyId: keyFingerprint(keys.current),
  };
}

/** The login, opened with whichever configured key sealed it; an error that says which is missing. */
export function openLogin(
  keys: CredentialKeys,
  credential: { id: number; secret: string; keyId: string },
): Login {
  const key = [keys.current, keys.previous].find(
    (candidate) => candidate && keyFingerprint(candidate) === credential.keyId,
  );
  if (!key) {
    throw new UnsealError(
      `calendar account ${credential.id} was sealed under another CREDENTIALS_KEY (key ${credential.keyId})`,
    );
  }
  return JSON.parse(unseal(key, associated(credential.id), credential.secret)) as Login;
}

/**
 * Why the service cannot start with these keys, or null: a connected account needs
 * CREDENTIALS_KEY, and every stored login must open with it or CREDENTIALS_KEY_PREVIOUS (one
 * login per key that sealed any is tried: a key that opens one opens them all).
 */
export async function credentialKeyProblem(
  prisma: PrismaClient,
  keys: CredentialKeys | undefined,
): Promise<string | null> {
  const samples = await prisma.$queryRaw<{ id: number; secret: string; key_id: string; accounts: bigint }[]>`
    SELECT DISTINCT ON (key_id) id, secret, key_id, count(*) OVER (PARTITION BY key_id) AS accounts
      FROM scheduling.credentials ORDER BY key_id, id`;
  if (samples.length === 0) return null;
  const accounts = samples.reduce((sum, sample) => sum + Number(sample.accounts), 0);
  if (!keys) {
    return `CREDENTIALS_KEY is required: ${accounts} calendar account(s) are connected, and their logins are sealed with it (docs/scheduling.md#connecting-calendars)`;
  }
  for (const sample of samples) {
    try {
      openLogin(keys, { id: sample.id, secret: sample.secret, keyId: sample.key_id });
    } catch {
      return `CREDENTIALS_KEY does not open ${Number(sample.accounts)} calendar login(s) (sealed under key ${sample.key_id}; this key is ${keyFingerprint(keys.current)}): set the key they were sealed with, or it as CREDENTIALS_KEY_PREVIOUS and run calendar:rotate-key`;
    }
  }
  return null;
}

/** Seals again under CREDENTIALS_KEY every login another key sealed; answers how many. */
export async function rotateLogins(prisma: PrismaClient, keys: CredentialKeys): Promise<number> {
  const current = keyFingerprint(keys.current);
  const stale = await prisma.credential.findMany({
    where: { keyId: { not: current } },
    select: { id: true, secret: true, keyId: true },
  });
  for (const credential of stale) {
    const login = openLogin(keys, credential);
    await prisma.credential.update({
      where: { id: credential.id, keyId: credential.keyId },
      data: sealLogin(keys, credential.id, login),
    });
  }
  return stale.length;
}
