// BoardLine: line framing, checksums and command parsing for the boards (see BoardLine.h).
#include "BoardLine.h"

#include <avr/sleep.h>

namespace boardline {

LineOut out;

static const char HEX_DIGITS[] PROGMEM = "0123456789ABCDEF";

// ---------------------------------------------------------------------------------------------
// Out

void LineOut::put(char c) {
  cs_ ^= (uint8_t)c;
  Serial.write((uint8_t)c);
}

void LineOut::text(PGM_P s) {
  for (char c = pgm_read_byte(s); c != 0; c = pgm_read_byte(++s)) put(c);
}

void LineOut::textRam(const char* s) {
  while (*s) put(*s++);
}

void LineOut::u32(uint32_t v) {
  char digits[10];
  uint8_t n = 0;
  do {
    digits[n++] = '0' + (v % 10);
    v /= 10;
  } while (v != 0);
  while (n > 0) put(digits[--n]);
}

void LineOut::i32(int32_t v) {
  if (v < 0) {
    put('-');
    u32((uint32_t)(-(v + 1)) + 1);  // -INT32_MIN does not fit an int32
  } else {
    u32((uint32_t)v);
  }
}

void LineOut::hexDigit(uint8_t v) {
  put(pgm_read_byte(&HEX_DIGITS[v & 15]));
}

void LineOut::end() {
  const uint8_t cs = cs_;
  Serial.write('*');
  Serial.write(pgm_read_byte(&HEX_DIGITS[cs >> 4]));
  Serial.write(pgm_read_byte(&HEX_DIGITS[cs & 15]));
  Serial.write('\n');
}

// ---------------------------------------------------------------------------------------------
// In

LineEvent LineIn::feed(uint8_t b) {
  if (b == '\n') {
    const LineEvent event = finish();
    len_ = 0;
    xor_ = 0;
    nonAscii_ = overlong_ = pendingCr_ = false;
    return event;
  }
  // A `\r` counts only right before the `\n`; anywhere else it is a byte the protocol cannot carry.
  if (pendingCr_) {
    pendingCr_ = false;
    add('\r');
  }
  if (b == '\r') {
    pendingCr_ = true;
  } else {
    add(b);
  }
  return LINE_NONE;
}

void LineIn::add(uint8_t b) {
  if (overlong_) return;
  if (len_ >= MAX_LINE_BYTES) {
    overlong_ = true;
    return;
  }
  if (b < 0x20 || b > 0x7e) nonAscii_ = true;
  xor_ ^= b;
  tail_[0] = tail_[1];
  tail_[1] = tail_[2];
  tail_[2] = b;
  if (len_ < KEPT_BYTES - 1) kept_[len_] = (char)b;
  len_++;
}

static int8_t hexValue(uint8_t c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

LineEvent LineIn::finish() {
  // The same order of checks as the service's LineFramer: length, blank, bytes, checksum.
  if (overlong_) return LINE_DROP_OVERLONG;
  if (len_ == 0) return LINE_BLANK;
  if (nonAscii_) return LINE_DROP_NON_ASCII;
  if (len_ < 3 || tail_[0] != '*') return LINE_DROP_CHECKSUM;
  const int8_t hi = hexValue(tail_[1]);
  const int8_t lo = hexValue(tail_[2]);
  const uint8_t body = xor_ ^ tail_[0] ^ tail_[1] ^ tail_[2];
  if (hi < 0 || lo < 0 || (uint8_t)((hi << 4) | lo) != body) return LINE_DROP_CHECKSUM;
  const uint16_t bodyLen = len_ - 3;
  truncated_ = bodyLen > KEPT_BYTES - 1;
  kept_[truncated_ ? KEPT_BYTES - 1 : bodyLen] = 0;
  return LINE_OK;
}

// ---------------------------------------------------------------------------------------------
// Commands

/** Splits at single spaces into at most `max` fields; returns the number of fields (max + 1 when there are more). */
static uint8_t fields(const char* s, const char* starts[], uint8_t lengths[], uint8_t max) {
  uint8_t n = 0;
  const char* start = s;
  for (const char* p = s;; p++) {
    if (*p == ' ' || *p == 0) {
      if (n == max) return max + 1;
      starts[n] = start;
      lengths[n] = (uint8_t)(p - start);
      n++;
      if (*p == 0) return n;
      start = p + 1;
    }
  }
}

static bool fieldIs(const char* start, uint8_t len, PGM_P word) {
  return len == strlen_P(word) && strncmp_P(start, word, len) == 0;
}

/** 1 to 6 decimal digits, as protocol.ts reads a command's numbers. */
static bool number(const char* start, uint8_t len, uint32_t* value) {
  if (len < 1 || len > 6) return false;
  uint32_t v = 0;
  for (uint8_t i = 0; i < len; i++) {
    const char c = start[i];
    if (c < '0' || c > '9') return false;
    v = v * 10 + (uint32_t)(c - '0');
  }
  *value = v;
  return true;
}

Command parseCommand(const char* body, bool truncated) {
  Command c;
  c.kind = CMD_SYNTAX;
  c.flag = false;
  c.cell = 0;
  c.value = 0;
  c.rgb[0] = c.rgb[1] = c.rgb[2] = 0;
  const char* f[4];
  uint8_t len[4];
  const uint8_t n = fields(body, f, len, 3);
  const bool hello = fieldIs(f[0], len[0], PSTR("HELLO?"));
  const bool tare = fieldIs(f[0], len[0], PSTR("TARE"));
  const bool rate = fieldIs(f[0], len[0], PSTR("RATE"));
  const bool led = fieldIs(f[0], len[0], PSTR("LED"));
  const bool leds = fieldIs(f[0], len[0], PSTR("LEDS"));
  const bool cal = fieldIs(f[0], len[0], PSTR("CAL"));
  if (!(hello || tare || rate || led || leds || cal)) {
    c.kind = CMD_UNKNOWN;
    return c;
  }
  // A body longer than any command of this board is malformed, whatever its first word.
  if (truncated) return c;
  if (hello) {
    if (n == 1) c.kind = CMD_HELLO;
  } else if (tare) {
    if (n == 1) {
      c.kind = CMD_TARE;
    } else if (n == 2 && number(f[1], len[1], &c.cell)) {
      c.kind = CMD_TARE;
      c.flag = true;
    }
  } else if (rate) {
    if (n == 2 && number(f[1], len[1], &c.value)) c.kind = CMD_RATE;
  } else if (led) {
    if (n == 3 && number(f[1], len[1], &c.cell)) {
      if (fieldIs(f[2], len[2], PSTR("off"))) {
        c.kind = CMD_LED;
        c.flag = true;
      } else if (len[2] == 6) {
        bool ok = true;
        for (uint8_t i = 0; i < 3; i++) {
          const int8_t hi = hexValue(f[2][2 * i]);
          const int8_t lo = hexValue(f[2][2 * i + 1]);
          if (hi < 0 || lo < 0) ok = false;
          c.rgb[i] = (uint8_t)((hi << 4) | lo);
        }
        if (ok) c.kind = CMD_LED;
      }
    }
  } else if (leds) {
    if (n == 2 && fieldIs(f[1], len[1], PSTR("off"))) c.kind = CMD_LEDS_OFF;
  } else if (cal) {
    if (n == 3 && number(f[1], len[1], &c.cell) && number(f[2], len[2], &c.value)) c.kind = CMD_CAL;
  }
  return c;
}

void replyUnparsed(const Command& command, const char* body) {
  out.begin();
  if (command.kind == CMD_UNKNOWN) {
    out.text(PSTR("ERR unknown "));
    for (const char* p = body; *p != 0 && *p != ' '; p++) out.put(*p);
  } else {
    out.text(PSTR("ERR syntax "));
    out.textRam(body);
  }
  out.end();
}

void replyDropped(LineEvent event) {
  out.begin();
  out.text(PSTR("ERR "));
  switch (event) {
    case LINE_DROP_CHECKSUM:
      out.text(PSTR("checksum"));
      break;
    case LINE_DROP_OVERLONG:
      out.text(PSTR("overlong"));
      break;
    default:
      out.text(PSTR("non-ascii"));
      break;
  }
  out.text(PSTR(" line dropped"));
  out.end();
}

void replyOk(const char* body) {
  out.begin();
  out.text(PSTR("OK "));
  out.textRam(body);
  out.end();
}

void replyCellRange(uint16_t cells) {
  out.begin();
  out.text(PSTR("ERR range cell must be 0-"));
  out.u32(cells - 1);
  out.end();
}

void idle() {
  set_sleep_mode(SLEEP_MODE_IDLE);
  cli();
  if (Serial.available() == 0) {
    sleep_enable();
    sei();
    sleep_cpu();
    sleep_disable();
  }
  sei();
}

}  // namespace boardline
