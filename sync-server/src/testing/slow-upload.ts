// An upload whose body arrives when the test says, counting how often it was read (tests of upload slots).

/** An upload whose body arrives when the test says; counts the reads. */
export function slowUpload<T>() {
  let arrive: (upload: T) => void = () => undefined;
  let fail: (error: unknown) => void = () => undefined;
  const body = new Promise<T>((resolve, reject) => {
    arrive = resolve;
    fail = reject;
  });
  const read = { count: 0 };
  return {
    read,
    reader: () => {
      read.count += 1;
      return body;
    },
    arrive: (upload: T) => arrive(upload),
    fail: (error: unknown) => fail(error),
  };
}
