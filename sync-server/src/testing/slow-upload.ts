// An upload whose body arrives when the test says, counting how often it was read (tests of upload slots).

/** An upload whose body arrives when the test says; counts the reads. */
export function slowUpload<T>() {
  let arrive: (upload: T) => void = () => undefined;
  let fail: (error: unknown) => void = () => undefined;
  const body = new Promise<T>((resolve, reject) => {
    arrive = resolve;
    fail = reject;
  });
  // A failure may come before the upload is read (the reader first waits on the database, longer on
  // PostgreSQL): the one who reads it then gets it, and meanwhile it is no unhandled rejection.
  body.catch(() => undefined);
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
