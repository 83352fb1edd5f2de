/** Environment variable names the API accepts (the plugin checks the same pattern). */
export const ENV_KEY_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
