// The `ask` scenario of the Codex driver: the model asks the user (request_user_input) and the
// server's form answers "blue". Written for this repository.

/** `h` is the driver's session (oracle-session.mjs). */
export async function runAskScenario(h) {
  await h.attempt("ask", async () => {
    await h.runTurn("ask", "ask me", [
      {
        tool: "request_user_input",
        arguments: {
          questions: [
            {
              id: "color",
              header: "Colour",
              question: "Which colour?",
              options: [
                { label: "red", description: "warm" },
                { label: "blue", description: "cool" },
              ],
            },
          ],
        },
      },
      { text: "you chose blue" },
    ]);
    h.print({
      type: "user_inputs",
      requests: h.userInputs,
      answerReachedModel: h.lastRequestText().includes("blue"),
    });
  });
}
