// kalaha-table: 14 load cells (12 pits, 2 stores) through HX711 amplifiers, reported as `W` frames (hardware/PROTOCOL.md).
//
// Board: Arduino Uno (ATmega328P, 16 MHz) or Mega 2560, same pins. Wiring: WIRING.md beside this file.
//
// Every HX711 has its own DOUT pin; one SCK line clocks them all, so one read takes 25 pulses
// for all 14 cells. The HX711s must run at 80 samples per second (RATE pin high): the table
// reports the mean of each cell's last four samples, 20 times a second by default and at once
// when a cell changes by half a gram or more.
//
// The zero (TARE) and the scale (CAL) of every cell are kept in EEPROM, so a table that is
// switched on with stones in its pits reads them at once. A board with an empty EEPROM zeroes
// itself at its very first power-on (the table should be empty then).
#include <avr/eeprom.h>
#include <BoardLine.h>

using namespace boardline;

#define FIRMWARE "spieltisch-kalaha/1.0"

const uint8_t CELLS = 14;
const uint16_t ALL_CELLS = (1u << CELLS) - 1;

// Pins. In sensor order: pits A-F (south), a-f (north), store south, store north.
const uint8_t DOUT_PINS[CELLS] = {3, 4, 5, 6, 7, 8, 9, 10, 11, 12, A0, A1, A2, A3};
const uint8_t SCK_PIN = A4;
/** Lit while a cell's amplifier does not answer; blinks with the heartbeat otherwise. */
const uint8_t STATUS_LED_PIN = 13;

/** Samples per cell in the mean a frame reports (4 at 80 per second: 50 ms). */
const uint8_t WINDOW = 4;
/** A cell whose amplifier has not been ready for this long is reported and reads 0. */
const uint16_t NOT_READY_MS = 150;
/** How often a fault is repeated while it lasts. */
const uint16_t FAULT_REPEAT_MS = 10000;
/** A frame goes out at once when a cell moves by this much (half a gram: below one stone, above the noise). */
const int32_t CHANGE_TENTHS = 5;
/** Frames sent because something changed are at least this far apart (50 per second, the protocol's most). */
const uint8_t MIN_FRAME_GAP_MS = 20;
/** Scale of a cell never calibrated: 1 kg cells of 1 mV/V give 2^23 * 256 / 1e6 = 2147 counts per gram at gain 128. */
const float DEFAULT_TENTHS_PER_COUNT = 10.0f / 2147.0f;
/** A scheduled frame waits while commands are coming in (their answers go first), but no longer than this. */
const uint8_t FRAME_DEFER_MS = 100;
/** A calibration weight must move the cell by at least this many counts (a tenth of a gram on a 1 kg cell). */
const int32_t MIN_CAL_COUNTS = 200;

/** What EEPROM keeps. A changed layout gets a new magic, so old contents are not misread. */
struct Stored {
  uint32_t magic;
  uint32_t id;
  int32_t zero[CELLS];
  float tenthsPerCount[CELLS];
};
const uint32_t MAGIC = 0x314B5053;  // "SPK1"
const int STORED_AT = 0;

Stored stored;
/** The next byte of `stored` to bring EEPROM up to date with, counting down to the magic at 0; -1 when all are. */
int16_t persistAt = -1;

volatile uint8_t* doutIn[CELLS];
uint8_t doutMask[CELLS];
volatile uint8_t* sckOut;
uint8_t sckMask;

/** The last WINDOW raw samples of each cell, and their sum. */
int32_t window[WINDOW][CELLS];
int32_t windowSum[CELLS];
uint8_t windowAt = 0;
bool sampled = false;
/** Cells whose amplifier stopped answering. */
uint16_t faulty = 0;
uint16_t reportedFaulty = 0;
uint32_t faultReportedAt = 0;
uint32_t lastSampleAt = 0;
/** Set once HELLO is out: no frame may come before it. */
bool live = false;

/** Tenths of a gram, as the next frame reports them, and as the last frame did. */
int32_t tenths[CELLS];
int32_t sentTenths[CELLS];

uint32_t frameSeq = 0;
uint32_t heartbeatSeq = 0;
uint16_t framePeriodMs = 50;
uint32_t nextFrameAt = 0;
uint32_t lastFrameAt = 0;
uint32_t nextHeartbeatAt = 1000;

LineIn lineIn;

// ---------------------------------------------------------------------------------------------
// The amplifiers

/** Bit c set when cell c's amplifier has a sample ready (DOUT low). */
static uint16_t readyCells() {
  uint16_t ready = 0;
  uint16_t bit = 1;
  for (uint8_t c = 0; c < CELLS; c++, bit <<= 1) {
    if (!(*doutIn[c] & doutMask[c])) ready |= bit;
  }
  return ready;
}

/**
 * Clocks one sample out of every amplifier: 24 data bits, MSB first, then a 25th pulse that
 * keeps channel A at gain 128. SCK must never stay high for 60 us (the HX711 would power
 * down), so interrupts wait while it is high; DOUT is valid 0.1 us after the rising edge.
 */
static void clockSamples(int32_t raw[CELLS]) {
  // DOUT levels of cells 0-7 and 8-13 after each rising edge, one byte each, transposed below.
  uint8_t low[24];
  uint8_t high[24];
  for (uint8_t i = 0; i < 25; i++) {
    const uint8_t sreg = SREG;
    cli();
    *sckOut |= sckMask;
    delayMicroseconds(1);
    uint8_t lo = 0;
    uint8_t hi = 0;
    for (uint8_t c = 0; c < 8; c++) lo = (lo << 1) | ((*doutIn[7 - c] & doutMask[7 - c]) ? 1 : 0);
    for (uint8_t c = 8; c < CELLS; c++) hi = (hi << 1) | ((*doutIn[CELLS + 7 - c] & doutMask[CELLS + 7 - c]) ? 1 : 0);
    *sckOut &= ~sckMask;
    SREG = sreg;
    if (i < 24) {
      low[i] = lo;
      high[i] = hi;
    }
    delayMicroseconds(1);
  }
  for (uint8_t c = 0; c < CELLS; c++) {
    const uint8_t* levels = c < 8 ? low : high;
    const uint8_t mask = 1 << (c & 7);
    uint8_t b[3];
    for (uint8_t k = 0; k < 3; k++) {
      uint8_t v = 0;
      for (uint8_t j = 0; j < 8; j++) v = (v << 1) | ((levels[8 * k + j] & mask) ? 1 : 0);
      b[k] = v;
    }
    // 24-bit two's complement, MSB first.
    raw[c] = (int32_t)(((uint32_t)(b[0] & 0x80 ? 0xFF : 0x00) << 24) | ((uint32_t)b[0] << 16) | ((uint16_t)b[1] << 8) | b[2]);
  }
}

static int32_t toTenths(uint8_t c) {
  if (faulty & (1u << c)) return 0;
  const float counts = (float)(windowSum[c] - (int32_t)WINDOW * stored.zero[c]) / WINDOW;
  return lroundf(counts * stored.tenthsPerCount[c]);
}

static void takeSample(uint16_t ready) {
  int32_t raw[CELLS];
  clockSamples(raw);
  lastSampleAt = millis();
  if (!sampled) {
    // The first sample fills the window, so the first frame already reads the table.
    for (uint8_t c = 0; c < CELLS; c++) {
      for (uint8_t w = 0; w < WINDOW; w++) window[w][c] = raw[c];
      windowSum[c] = raw[c] * (int32_t)WINDOW;
    }
    sampled = true;
    firstSample(raw);
  } else {
    uint16_t bit = 1;
    for (uint8_t c = 0; c < CELLS; c++, bit <<= 1) {
      if (!(ready & bit)) continue;  // not ready: its bits were noise
      windowSum[c] += raw[c] - window[windowAt][c];
      window[windowAt][c] = raw[c];
    }
    windowAt = (windowAt + 1) % WINDOW;
  }
  bool changed = false;
  for (uint8_t c = 0; c < CELLS; c++) {
    tenths[c] = toTenths(c);
    const int32_t d = tenths[c] - sentTenths[c];
    if (d >= CHANGE_TENTHS || d <= -CHANGE_TENTHS) changed = true;
  }
  if (changed && live && millis() - lastFrameAt >= MIN_FRAME_GAP_MS) sendFrame();
}

/**
 * Reads the amplifiers when all of them have a sample. One that does not answer within
 * NOT_READY_MS is marked faulty and no longer waited for; it recovers when it is ready again.
 */
static void pollAmplifiers() {
  const uint16_t ready = readyCells();
  faulty &= ~ready;
  const uint16_t needed = ALL_CELLS & ~faulty;
  if (ready != 0 && (ready & needed) == needed) {
    takeSample(ready);
  } else if (millis() - lastSampleAt >= NOT_READY_MS) {
    faulty |= needed & ~ready;
    if (ready != 0) {
      takeSample(ready);
    } else {
      lastSampleAt = millis();
      for (uint8_t c = 0; c < CELLS; c++) tenths[c] = 0;
    }
  }
  reportFaults();
}

/** `ERR hx711 cell <c> not ready` for a cell that just failed, and again for every failed cell now and then. */
static void reportFaults() {
  const uint32_t now = millis();
  const uint16_t fresh = faulty & ~reportedFaulty;
  reportedFaulty = faulty;
  const bool repeat = faulty != 0 && now - faultReportedAt >= FAULT_REPEAT_MS;
  if (fresh == 0 && !repeat) return;
  const uint16_t report = fresh != 0 ? fresh : faulty;
  faultReportedAt = now;
  for (uint8_t c = 0; c < CELLS; c++) {
    if (!(report & (1u << c))) continue;
    out.begin();
    out.text(PSTR("ERR hx711 cell "));
    out.u32(c);
    out.text(PSTR(" not ready"));
    out.end();
  }
}

/** A power-down pulse (SCK high for more than 60 us) resets every HX711 to channel A, gain 128. */
static void resetAmplifiers() {
  *sckOut |= sckMask;
  delayMicroseconds(100);
  *sckOut &= ~sckMask;
}

// ---------------------------------------------------------------------------------------------
// EEPROM

/**
 * Writes `stored` to EEPROM in the background: one byte at a time, only bytes that differ, while
 * the loop goes on (a byte takes 3.4 ms to write, all of them 0.4 s). The magic goes last, so a
 * board switched off halfway through starts afresh rather than from half a calibration.
 */
static void persist() {
  persistAt = sizeof(Stored) - 1;
}

static void pollPersist() {
  while (persistAt >= 0 && eeprom_is_ready()) {
    uint8_t* at = (uint8_t*)(STORED_AT + persistAt);
    const uint8_t want = ((const uint8_t*)&stored)[persistAt];
    persistAt--;
    if (eeprom_read_byte(at) != want) {
      eeprom_write_byte(at, want);
      return;
    }
  }
}

static uint32_t fnv1a(uint32_t h, const uint8_t* p, uint8_t n) {
  while (n--) {
    h ^= *p++;
    h *= 16777619UL;
  }
  return h;
}

/** A board with an empty EEPROM takes its first reading as zero, and the noise in it as its id. */
static void firstSample(const int32_t raw[CELLS]) {
  if (stored.magic == MAGIC) return;
  stored.magic = MAGIC;
  uint32_t id = fnv1a(2166136261UL, (const uint8_t*)raw, sizeof(int32_t) * CELLS);
  const uint32_t t = micros();
  stored.id = fnv1a(id, (const uint8_t*)&t, sizeof t);
  for (uint8_t c = 0; c < CELLS; c++) {
    stored.zero[c] = raw[c];
    stored.tenthsPerCount[c] = DEFAULT_TENTHS_PER_COUNT;
  }
  persist();
}

// ---------------------------------------------------------------------------------------------
// Lines out

static void sendHello() {
  out.begin();
  out.text(PSTR("HELLO proto=1 fw=" FIRMWARE " board=kalaha id="));
  for (int8_t shift = 28; shift >= 0; shift -= 4) out.hexDigit(stored.id >> shift);
  out.text(PSTR(" cells="));
  out.u32(CELLS);
  out.end();
}

static void sendFrame() {
  out.begin();
  out.text(PSTR("W "));
  out.u32(frameSeq++);
  for (uint8_t c = 0; c < CELLS; c++) {
    out.put(' ');
    out.i32(tenths[c]);
    sentTenths[c] = tenths[c];
  }
  out.end();
  const uint32_t now = millis();
  // On schedule, the next frame keeps the rhythm; a frame sent early (a change) starts it anew.
  nextFrameAt = (int32_t)(now - nextFrameAt) >= 0 && now - nextFrameAt < framePeriodMs ? nextFrameAt + framePeriodMs : now + framePeriodMs;
  lastFrameAt = now;
}

static void sendHeartbeat() {
  out.begin();
  out.text(PSTR("HB "));
  out.u32(heartbeatSeq++);
  out.put(' ');
  out.u32(millis());
  out.end();
}

// ---------------------------------------------------------------------------------------------
// Commands

static void tare(uint8_t c) {
  stored.zero[c] = windowSum[c] / (int32_t)WINDOW;
}

static void handleLine() {
  const char* body = lineIn.body();
  const Command command = parseCommand(body, lineIn.truncated());
  switch (command.kind) {
    case CMD_HELLO:
      sendHello();
      return;
    case CMD_TARE:
      if (command.flag && command.cell >= CELLS) return replyCellRange(CELLS);
      if (command.flag) {
        tare(command.cell);
      } else {
        for (uint8_t c = 0; c < CELLS; c++) tare(c);
      }
      persist();
      for (uint8_t c = 0; c < CELLS; c++) tenths[c] = toTenths(c);
      return replyOk(body);
    case CMD_RATE:
      if (command.value < 1 || command.value > 50) {
        out.begin();
        out.text(PSTR("ERR range rate must be 1-50"));
        out.end();
        return;
      }
      framePeriodMs = (1000 + command.value / 2) / command.value;
      nextFrameAt = millis() + framePeriodMs;
      return replyOk(body);
    case CMD_CAL: {
      if (command.cell >= CELLS) return replyCellRange(CELLS);
      const uint8_t c = command.cell;
      const int32_t counts = windowSum[c] / (int32_t)WINDOW - stored.zero[c];
      if (command.value == 0 || (counts < MIN_CAL_COUNTS && counts > -MIN_CAL_COUNTS) || (faulty & (1u << c))) {
        out.begin();
        out.text(PSTR("ERR cal cell "));
        out.u32(c);
        out.text(PSTR(" does not feel the weight"));
        out.end();
        return;
      }
      stored.tenthsPerCount[c] = (float)command.value / (float)counts;
      persist();
      tenths[c] = toTenths(c);
      return replyOk(body);
    }
    case CMD_LED:
    case CMD_LEDS_OFF:
      out.begin();
      out.text(PSTR("ERR unsupported no LEDs on this table"));
      out.end();
      return;
    case CMD_SYNTAX:
    case CMD_UNKNOWN:
      return replyUnparsed(command, body);
  }
}

static void pollSerial() {
  while (Serial.available() > 0) {
    const LineEvent event = lineIn.feed((uint8_t)Serial.read());
    if (event == LINE_OK) {
      handleLine();
    } else if (event != LINE_NONE && event != LINE_BLANK) {
      replyDropped(event);
    }
  }
}

// ---------------------------------------------------------------------------------------------

void setup() {
  // Timers 1 and 2 only serve analogWrite, which this board does not use.
  TCCR1B = 0;
  TCCR2B = 0;
  pinMode(STATUS_LED_PIN, OUTPUT);
  for (uint8_t c = 0; c < CELLS; c++) {
    pinMode(DOUT_PINS[c], INPUT);
    doutIn[c] = portInputRegister(digitalPinToPort(DOUT_PINS[c]));
    doutMask[c] = digitalPinToBitMask(DOUT_PINS[c]);
  }
  pinMode(SCK_PIN, OUTPUT);
  sckOut = portOutputRegister(digitalPinToPort(SCK_PIN));
  sckMask = digitalPinToBitMask(SCK_PIN);
  eeprom_read_block(&stored, (const void*)STORED_AT, sizeof stored);
  resetAmplifiers();
  Serial.begin(115200);
  // Frames wait for the first sample, so a table switched on with stones never reports zeros.
  lastSampleAt = millis();
  while (!sampled && millis() - lastSampleAt < NOT_READY_MS * 4) {
    if (readyCells() == ALL_CELLS) takeSample(ALL_CELLS);
  }
  if (stored.magic != MAGIC) {
    // No amplifier answered at the first power-on: until one does (and sets the zero), cells read 0.
    for (uint8_t c = 0; c < CELLS; c++) stored.tenthsPerCount[c] = DEFAULT_TENTHS_PER_COUNT;
  }
  sendHello();
  live = true;
  nextFrameAt = millis();
  nextHeartbeatAt = millis() + 1000;
}

void loop() {
  pollSerial();
  pollAmplifiers();
  pollPersist();
  const uint32_t now = millis();
  // A frame waits for the answers to commands coming in, so that they cannot pile up past the
  // 64-byte receive buffer while a 100-byte frame is going out.
  const int32_t late = (int32_t)(now - nextFrameAt);
  if (late >= 0 && (Serial.available() == 0 || late >= FRAME_DEFER_MS)) sendFrame();
  if ((int32_t)(now - nextHeartbeatAt) >= 0) {
    sendHeartbeat();
    nextHeartbeatAt += 1000;
    digitalWrite(STATUS_LED_PIN, faulty != 0 || (heartbeatSeq & 1));
  }
  idle();
}
