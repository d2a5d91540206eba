// @vitest-environment happy-dom
// A part of a screen loaded on demand: nothing is fetched until it is mounted, it shows as soon as it has
// arrived, and a failed load is tried again the next time.
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { useLoadedModule } from './use-loaded-module';

afterEach(cleanup);

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

type Part = { label: string };

function Shown({ load }: { load: () => Promise<Part> }) {
  const part = useLoadedModule(load);
  return <p>{part ? part.label : 'waiting'}</p>;
}

it('loads nothing until mounted, then shows the part the moment it arrives, and at once on the next mount', async () => {
  const calls: number[] = [];
  const arrival = deferred<Part>();
  const load = () => {
    calls.push(calls.length);
    return arrival.promise;
  };
  expect(calls).toHaveLength(0);
  const view = render(<Shown load={load} />);
  expect(calls).toHaveLength(1);
  expect(screen.getByText('waiting')).toBeTruthy();
  await act(async () => arrival.resolve({ label: 'the chart' }));
  expect(screen.getByText('the chart')).toBeTruthy();

  view.unmount();
  render(<Shown load={load} />);
  // Already here: shown in the first render, not fetched again.
  expect(screen.getByText('the chart')).toBeTruthy();
  expect(calls).toHaveLength(1);
});

it('tries a failed load again the next time the part is mounted', async () => {
  const attempts = [deferred<Part>(), deferred<Part>()];
  let call = 0;
  const load = () => attempts[call++]!.promise;
  const errors: unknown[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => void errors.push(args);
  try {
    const first = render(<Shown load={load} />);
    await act(async () => attempts[0]!.reject(new Error('offline')));
    expect(screen.getByText('waiting')).toBeTruthy();
    expect(errors).toHaveLength(1);
    first.unmount();
    render(<Shown load={load} />);
    await act(async () => attempts[1]!.resolve({ label: 'loaded on the second try' }));
    expect(screen.getByText('loaded on the second try')).toBeTruthy();
    expect(call).toBe(2);
  } finally {
    console.error = original;
  }
});
