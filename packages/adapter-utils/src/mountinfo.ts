/** One line of `/proc/<pid>/mountinfo` (proc(5)), the fields this package reads. */
export interface MountinfoEntry {
  /** Where it is mounted, unescaped (the kernel writes space, tab, newline and backslash as `\ooo`). */
  readonly mountPoint: string;
  /** The mount's own options (`rw`, `noexec`, …). */
  readonly mountOptions: readonly string[];
  readonly fsType: string;
  /** The file system's options (for cgroup v1, its controllers). */
  readonly superOptions: readonly string[];
}

function unescapeMountPath(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_match, octal: string) =>
    String.fromCharCode(Number.parseInt(octal, 8)),
  );
}

/** The entries of a mountinfo text, in its order (pure); lines it cannot read are left out. */
export function parseMountinfo(text: string): MountinfoEntry[] {
  const entries: MountinfoEntry[] = [];
  for (const line of text.split("\n")) {
    const [mountFields, superFields] = line.split(" - ");
    if (!mountFields || !superFields) continue;
    const fields = mountFields.split(" ");
    const point = fields[4];
    const options = fields[5];
    if (point === undefined || options === undefined) continue;
    const [fsType = "", , superOptions = ""] = superFields.split(" ");
    entries.push({
      mountPoint: unescapeMountPath(point),
      mountOptions: options.split(","),
      fsType,
      superOptions: superOptions.split(","),
    });
  }
  return entries;
}
