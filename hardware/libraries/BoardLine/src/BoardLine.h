// BoardLine: the board's side of the Spieltisch line protocol (hardware/PROTOCOL.md), shared by every sketch.
//
// Lines out are checksummed as their bytes go to Serial, so no line is ever held in RAM. Lines in
// are checked exactly as the service checks lines (firmware-bridge/line-stream.ts): at most 256
// bytes, printable ASCII, `*CS` as upper- or lower-case hex. Commands are parsed as
// firmware-bridge/protocol.ts `parseCommand` parses them; each sketch decides what to do with them.
#ifndef BOARDLINE_H
#define BOARDLINE_H

#include <Arduino.h>

namespace boardline {

/** Longest line the protocol allows, checksum included, terminator not. */
const uint16_t MAX_LINE_BYTES = 256;
/** The part of a command line kept in RAM; every command the boards know is far shorter. */
const uint8_t KEPT_BYTES = 40;

/** Writes one line: `begin()`, the fields, `end()` (which adds `*CS\n`). */
class LineOut {
 public:
  void begin() { cs_ = 0; }
  void put(char c);
  /** A string in flash (`PSTR("...")`): constant text costs no RAM. */
  void text(PGM_P s);
  /** A string in RAM. */
  void textRam(const char* s);
  void u32(uint32_t v);
  void i32(int32_t v);
  /** One upper-case hex digit of the low four bits. */
  void hexDigit(uint8_t v);
  void end();

 private:
  uint8_t cs_ = 0;
};

extern LineOut out;

/** What a line in turned out to be. Drops are answered `ERR <reason> line dropped`, as the simulated boards do. */
enum LineEvent : uint8_t {
  LINE_NONE,
  LINE_OK,
  LINE_BLANK,
  LINE_DROP_CHECKSUM,
  LINE_DROP_OVERLONG,
  LINE_DROP_NON_ASCII,
};

/** Collects bytes from the service into checked lines. */
class LineIn {
 public:
  /** Takes one byte; returns what ended with it (LINE_NONE while a line is still open). */
  LineEvent feed(uint8_t b);
  /** The body of the last LINE_OK line, NUL-terminated, cut at KEPT_BYTES - 1 bytes. */
  const char* body() const { return kept_; }
  /** Whether the body was longer than what was kept (it cannot be a command this board knows). */
  bool truncated() const { return truncated_; }
  /** Whether a line has started and not yet ended. */
  bool open() const { return len_ > 0 || pendingCr_; }

 private:
  void add(uint8_t b);
  LineEvent finish();

  char kept_[KEPT_BYTES];
  uint16_t len_ = 0;
  uint8_t xor_ = 0;
  uint8_t tail_[3] = {0, 0, 0};
  bool nonAscii_ = false;
  bool overlong_ = false;
  bool pendingCr_ = false;
  bool truncated_ = false;
};

enum CommandKind : uint8_t {
  CMD_HELLO,
  CMD_TARE,
  CMD_RATE,
  CMD_LED,
  CMD_LEDS_OFF,
  /** `CAL <cell> <tenths>`: an extension of this firmware (hardware/PROTOCOL.md), not in protocol.ts. */
  CMD_CAL,
  /** A known command with malformed fields: answered `ERR syntax <body>`. */
  CMD_SYNTAX,
  /** An unknown command: answered `ERR unknown <tag>`. */
  CMD_UNKNOWN,
};

struct Command {
  CommandKind kind;
  /** TARE: whether a cell was named. LED: whether the colour is `off`. */
  bool flag;
  /** TARE, LED, CAL: the cell. */
  uint32_t cell;
  /** RATE: hertz. CAL: tenths of a gram. */
  uint32_t value;
  /** LED: red, green, blue. */
  uint8_t rgb[3];
};

/** Parses a checked body as protocol.ts `parseCommand` does (numbers are 1–6 digits; ranges are the board's to check). */
Command parseCommand(const char* body, bool truncated);

/** Answers a command the board could not parse: `ERR syntax <body>` or `ERR unknown <tag>`. */
void replyUnparsed(const Command& command, const char* body);
/** `ERR <reason> line dropped` for a line the framing refused. */
void replyDropped(LineEvent event);
/** `OK <body>`. */
void replyOk(const char* body);
/** `ERR range cell must be 0-<cells - 1>`. */
void replyCellRange(uint16_t cells);

/**
 * Sleeps until the next interrupt (the 1 ms timer tick, a byte in or a byte out), unless a byte
 * is already waiting: a board that idles here uses a fraction of the power and the tests' emulator
 * skips the time.
 */
void idle();

}  // namespace boardline

#endif
