// Secret-shaped strings of the kinds a harness writes into a model's output, a user's input, a
// tool's result or a model error, to see whether the runner's committed events leak them. Built
// at run time from repeated parts (no literal credential in the repository). Written for this
// repository.

const repeat = (part, length) => part.repeat(Math.ceil(length / part.length)).slice(0, length);

/** One of each shape, by name. */
export const SECRET_SHAPES = {
  aws: `AKIA${repeat("Q3X7", 16)}`,
  anthropic: `sk-ant-api03-${repeat("Ab9Cd8Ef7Gh6", 48)}`,
  githubPat: `github_pat_${repeat("11AB22CD33", 22)}_${repeat("Ef44Gh55Ij66", 59)}`,
  google: `AIza${repeat("Sy9Kx8Lw7Mv6", 35)}`,
  slack: `xoxb-${repeat("1234", 12)}-${repeat("5678", 12)}-${repeat("Pq1Rs2Tu3Vw4", 24)}`,
  jwt: `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJwYXBlcmNsaXAifQ.${repeat("Xy1Zw2Vu3Ts4", 43)}`,
  bearer: `Authorization: Bearer ${repeat("Tk7Lm8Nn9Op0", 40)}`,
  password: `password=${repeat("hunter2", 14)}`,
  urlCredentials: `https://agent:${repeat("pa55w0rd", 16)}@git.example.com/repo.git`,
  privateKey: `-----BEGIN PRIVATE KEY-----\n${repeat("MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", 64)}\n-----END PRIVATE KEY-----`,
};

/** The part of each shape that must never appear in a committed event. */
export const SECRET_CORES = [
  repeat("Q3X7", 16),
  repeat("Ab9Cd8Ef7Gh6", 48),
  repeat("Ef44Gh55Ij66", 59),
  repeat("Sy9Kx8Lw7Mv6", 35),
  repeat("Pq1Rs2Tu3Vw4", 24),
  repeat("Xy1Zw2Vu3Ts4", 43),
  repeat("Tk7Lm8Nn9Op0", 40),
  repeat("hunter2", 14),
  repeat("pa55w0rd", 16),
  repeat("MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", 64),
];

/** A sentence naming each shape, as a model or a user writes them: `the aws value: AKIA…`. */
export const SECRET_SENTENCES = Object.entries(SECRET_SHAPES).map(
  ([name, value]) => `the ${name} value: ${value}\n`,
);
