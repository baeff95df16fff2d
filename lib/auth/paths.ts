/** Where people sign in; the guards redirect here and next-auth sends its errors here. */
export const SIGN_IN_PATH = "/signin";
/** Where a signed-in person starts. */
export const HOME_PATH = "/sets";
