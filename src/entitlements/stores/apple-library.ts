// Apple's App Store Server Library, loaded on the first Apple verification rather than at start:
// it and its dependencies (jsrsasign, node-forge...) are ~7 MB of heap and ~25 MB of RSS that a
// network selling no iOS app, or a process that never verifies one, would carry for nothing.
type AppleLibrary = typeof import('@apple/app-store-server-library');

let loading: Promise<AppleLibrary> | undefined;

/** The library, imported once (concurrent first callers share the import). */
export function appleLibrary(): Promise<AppleLibrary> {
  return (loading ??= import('@apple/app-store-server-library'));
}
