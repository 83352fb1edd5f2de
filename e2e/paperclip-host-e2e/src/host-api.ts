/** A JSON client for the Paperclip host's HTTP API (`local_trusted` mode needs no login). */
export class HostApi {
  constructor(readonly baseUrl: string) {}

  async request<T>(method: "GET" | "POST" | "PATCH" | "DELETE", route: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.baseUrl}/api${route}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${route}: HTTP ${response.status} ${text.slice(0, 2000)}`);
    return (text.length > 0 ? JSON.parse(text) : undefined) as T;
  }

  get<T>(route: string): Promise<T> {
    return this.request<T>("GET", route);
  }

  post<T>(route: string, body: unknown = {}): Promise<T> {
    return this.request<T>("POST", route, body);
  }
}

export interface Plugin {
  readonly id: string;
  readonly pluginKey: string;
  readonly status: string;
  readonly lastError?: string | null;
}

export interface Environment {
  readonly id: string;
  readonly config: Record<string, unknown>;
}

export interface Lease {
  readonly id: string;
  readonly status: string;
  readonly cleanupStatus: string | null;
  readonly providerLeaseId: string | null;
  readonly failureReason: string | null;
}

export interface AdapterCheck {
  readonly code: string;
  readonly level: "info" | "warn" | "error";
  readonly message: string;
  readonly detail?: string;
}
