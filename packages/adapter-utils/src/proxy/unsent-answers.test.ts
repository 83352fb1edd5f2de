import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { UnsentAnswers } from "./unsent-answers.js";

describe("UnsentAnswers", () => {
  it("admits up to the bound per connection, and again once an answer is sent or closed", () => {
    const unsent = new UnsentAnswers(2);
    const connection = {};
    const [first, second, third] = [new EventEmitter(), new EventEmitter(), new EventEmitter()];
    expect(unsent.admit(connection, first)).toBe(true);
    expect(unsent.full(connection)).toBe(false);
    expect(unsent.admit(connection, second)).toBe(true);
    expect(unsent.full(connection)).toBe(true);
    expect(unsent.admit(connection, third)).toBe(false);
    first.emit("finish");
    expect(unsent.admit(connection, third)).toBe(true);
    second.emit("close");
    expect(unsent.admit(connection, new EventEmitter())).toBe(true);
    expect(unsent.admit(connection, new EventEmitter())).toBe(false);
  });

  it("counts each connection on its own", () => {
    const unsent = new UnsentAnswers(1);
    const [a, b] = [{}, {}];
    expect(unsent.full(a)).toBe(false);
    expect(unsent.admit(a, new EventEmitter())).toBe(true);
    expect(unsent.admit(b, new EventEmitter())).toBe(true);
    expect(unsent.admit(a, new EventEmitter())).toBe(false);
  });

  it("counts an answer that both finishes and closes once", () => {
    const unsent = new UnsentAnswers(2);
    const connection = {};
    const answer = new EventEmitter();
    unsent.admit(connection, answer);
    unsent.admit(connection, new EventEmitter());
    answer.emit("finish");
    answer.emit("close");
    expect(unsent.admit(connection, new EventEmitter())).toBe(true);
    expect(unsent.admit(connection, new EventEmitter())).toBe(false);
  });
});
