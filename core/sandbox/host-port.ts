/** "host:port" entries of the network allowlist: parsing, loopback test, base URLs. */

export interface HostPort {
  host: string;
  port: number;
}

/** Parses "host:port" (IPv6 in brackets: "[::1]:8080"); undefined when it is not one. */
export function parseHostPort(entry: string): HostPort | undefined {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^\s:/[\]]+):(\d{1,5})$/.exec(entry.trim());
  if (!match) return undefined;
  const port = Number(match[2]);
  if (port < 1 || port > 65535) return undefined;
  return { host: match[1]!.replace(/^\[|\]$/g, '').toLowerCase(), port };
}

export function formatHostPort({ host, port }: HostPort): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** Loopback hosts are not reached through the proxy's resolver but forwarded as ports. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** The host:port a base URL points at (http → 80, https → 443), or undefined when it is no URL. */
export function baseUrlHostPort(value: string): HostPort | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  return { host: url.hostname.replace(/^\[|\]$/g, '').toLowerCase(), port };
}
