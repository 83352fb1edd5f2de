/**
 * A streamed request body that reports progress; a failure of the source (a file that
 * cannot be read) is kept, so the caller throws it instead of a connection error.
 */
export class UploadRelay {
  #failure: { readonly error: unknown } | undefined;

  get failure(): { readonly error: unknown } | undefined {
    return this.#failure;
  }

  relay(source: AsyncIterable<Uint8Array>, onProgress: () => void): AsyncIterable<Uint8Array> {
    const keep = (error: unknown): void => {
      this.#failure ??= { error };
    };
    return (async function* () {
      try {
        for await (const chunk of source) {
          onProgress();
          yield chunk;
        }
      } catch (error) {
        keep(error);
        throw error;
      }
    })();
  }
}
