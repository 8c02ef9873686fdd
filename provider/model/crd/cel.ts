/**
 * CEL for `x-kubernetes-validations`: one cel-js environment with the Kubernetes library
 * (celLibrary.ts) and the variables `self` and `oldSelf`, and each rule compiled once, on first
 * use. Evaluation never throws: a rule that cannot be compiled or evaluated comes back as an
 * error text, as the API server reports it.
 */
import { Environment, type ParseResult } from '@marcbachmann/cel-js';
import { failure, type Outcome, success } from '../outcome';
import { registerKubernetesLibrary } from './celLibrary';

let environment: Environment | undefined;
const programs = new Map<string, ParseResult | Error>();

function env(): Environment {
  environment ??= registerKubernetesLibrary(new Environment())
    .registerVariable('self', 'dyn')
    .registerVariable('oldSelf', 'dyn');
  return environment;
}

function program(expression: string): ParseResult | Error {
  let compiled = programs.get(expression);
  if (!compiled) {
    try {
      compiled = env().parse(expression);
    } catch (error) {
      compiled = error instanceof Error ? error : new Error(String(error));
    }
    programs.set(expression, compiled);
  }
  return compiled;
}

/** The expression's value, or why it has none (it does not compile, or its evaluation failed). */
export function evaluateCel(expression: string, variables: { self: unknown; oldSelf?: unknown }): Outcome<unknown> {
  const compiled = program(expression);
  if (compiled instanceof Error) return failure(`compilation failed: ${firstLine(compiled)}`);
  try {
    return success(compiled(variables));
  } catch (error) {
    return failure(firstLine(error instanceof Error ? error : new Error(String(error))));
  }
}

function firstLine(error: Error): string {
  return error.message.split('\n')[0]!;
}

/** Whether a rule is a transition rule (it reads `oldSelf`). */
export function isTransitionRule(rule: string): boolean {
  return /\boldSelf\b/.test(rule);
}
