import type { DoctorCheck } from "./doctor.js";
import { formatCliError } from "./report-error.js";

const LABEL: Record<DoctorCheck["status"], string> = { ok: "ok  ", warn: "warn", fail: "FAIL", info: "info" };

export function formatDoctorReport(checks: readonly DoctorCheck[]): string {
  const lines = ["paperclip-sandbox doctor"];
  for (const check of checks) {
    lines.push(`  ${LABEL[check.status]}  ${check.name}: ${check.detail}`);
    if (check.error && check.status !== "ok") lines.push(formatCliError(check.error, "        ").trimEnd());
  }
  const failures = checks.filter((check) => check.status === "fail").length;
  const warnings = checks.filter((check) => check.status === "warn").length;
  lines.push(
    failures === 0
      ? `No problems found${warnings ? ` (${warnings} warning${warnings === 1 ? "" : "s"})` : ""}.`
      : `${failures} problem${failures === 1 ? "" : "s"} found.`,
  );
  return `${lines.join("\n")}\n`;
}
