/** Why an examination request was refused; the API maps it to 422 with `message` as the detail. */
export class ExaminationError extends Error {
  readonly code = "invalid_presentation" as const;

  constructor(message: string) {
    super(message);
    this.name = "ExaminationError";
  }
}
