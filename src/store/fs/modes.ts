/**
 * Permission modes of everything mailroom creates: messages may hold secrets, so only the owner
 * may read them (files 0600, directories 0700). The process umask can only narrow these.
 */

/** File mode for every file mailroom writes. */
export const FILE_MODE = 0o600;
/** Directory mode for every directory mailroom creates (including lock directories). */
export const DIR_MODE = 0o700;
