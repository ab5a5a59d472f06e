// The console's one submit pattern: run an action, show it busy, keep its refusal for the form to
// show (beside fields, or at the top) and keep what was typed. `run` says whether it succeeded.
import { useState, type FormEvent } from 'react';

export function useSubmit<A extends unknown[]>(action: (...args: A) => Promise<unknown>) {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  async function run(...args: A): Promise<boolean> {
    setBusy(true);
    setError(null);
    try {
      await action(...args);
      return true;
    } catch (failure) {
      setError(failure);
      return false;
    } finally {
      setBusy(false);
    }
  }
  /** For a form's onSubmit: the page stays, the action runs. */
  const onSubmit =
    (...args: A) =>
    (event: FormEvent) => {
      event.preventDefault();
      void run(...args);
    };
  return { run, onSubmit, error, busy, setError };
}
