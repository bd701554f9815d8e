// square-board: a reed or hall switch under each of up to 13 x 13 squares, read through daisy-chained 74HC165s, reported as `G` frames; a WS2812 under each square lit by `LED` commands (hardware/PROTOCOL.md).
//
// Board: Arduino Uno (ATmega328P, 16 MHz) or Mega 2560, same pins. Wiring: WIRING.md beside this file.
//
// The board's size is set when the sketch is compiled (default 6 x 6, the Malawi board):
//   -DBOARD_COLS=13 -DBOARD_ROWS=13   up to 13 x 13 (169 squares, 22 shift registers)
//   -DBOARD_LEDS=0                    a board without LEDs (LED commands answer ERR unsupported)
//   -DLED_SERPENTINE=0                LEDs in row order (default: the strip turns at each row's end)
//
// Square i = row * cols + col (row 0 = rank 1, col 0 = file a) is wired to input D(i % 8) of
// the (i / 8)th shift register, counted from the one whose QH goes to the Arduino. A square is
// occupied when its switch pulls the input low. Every switch is read every 4 ms; a change counts
// when four reads in a row agree (12-16 ms), so contact bounce never reaches the service.
#include <avr/eeprom.h>
#include <BoardLine.h>

using namespace boardline;

#ifndef BOARD_COLS
#define BOARD_COLS 6
#endif
#ifndef BOARD_ROWS
#define BOARD_ROWS 6
#endif
#ifndef BOARD_LEDS
#define BOARD_LEDS 1
#endif
#ifndef LED_SERPENTINE
#define LED_SERPENTINE 1
#endif

#if BOARD_COLS < 1 || BOARD_COLS > 13 || BOARD_ROWS < 1 || BOARD_ROWS > 13
#error "a square board has 1 to 13 columns and rows"
#endif

#define FIRMWARE "spieltisch-squares/1.0"
#define STR2(x) #x
#define STR(x) STR2(x)

const uint8_t COLS = BOARD_COLS;
const uint8_t ROWS = BOARD_ROWS;
const uint8_t CELLS = COLS * ROWS;
const uint8_t CHIPS = (CELLS + 7) / 8;
const uint8_t HEX_DIGITS = (CELLS + 3) / 4;

// Pins.
const uint8_t LOAD_PIN = 2;    // 74HC165 SH/LD (pin 1), all chips
const uint8_t CLOCK_PIN = 3;   // 74HC165 CLK (pin 2), all chips
const uint8_t DATA_PIN = 4;    // QH (pin 9) of the first chip, 10k to GND
const uint8_t LED_PIN = 6;     // DIN of the first WS2812, through 330 ohm
const uint8_t BUTTON_PINS[3] = {A0, A1, A2};  // ok, undo, help: to GND when pressed
const uint8_t STATUS_LED_PIN = 13;
/** Left open: its noise seeds the board's id at the first power-on. */
const uint8_t NOISE_PIN = A5;

const uint8_t SCAN_MS = 4;
/** How often a fault is repeated while it lasts. */
const uint16_t FAULT_REPEAT_MS = 10000;
/** LEDs are refreshed once the line from the service has been quiet this long (see showLeds). */
const uint8_t LED_QUIET_MS = 2;
/** A scheduled frame waits while commands are coming in (their answers go first), but no longer than this. */
const uint8_t FRAME_DEFER_MS = 100;

volatile uint8_t* loadOut;
uint8_t loadMask;
volatile uint8_t* clockOut;
uint8_t clockMask;
volatile uint8_t* dataIn;
uint8_t dataMask;

/** Debounced squares, 1 = occupied; bit b of byte k is square 8k + b. */
uint8_t occupied[CHIPS];
/** Two-bit counters per square of how many reads in a row differed from `occupied`. */
uint8_t count0[CHIPS];
uint8_t count1[CHIPS];
uint8_t buttons = 0;
uint8_t buttonCount0 = 0xFF;
uint8_t buttonCount1 = 0xFF;
bool chainFault = false;
uint32_t chainReportedAt = 0;

uint32_t frameSeq = 0;
uint32_t heartbeatSeq = 0;
uint16_t framePeriodMs = 50;
uint32_t nextFrameAt = 0;
uint32_t nextHeartbeatAt = 1000;
uint32_t lastScanAt = 0;

/** What EEPROM keeps: the id the board made up at its first power-on. */
struct Stored {
  uint32_t magic;
  uint32_t id;
};
const uint32_t MAGIC = 0x31475053;  // "SPG1"
uint32_t boardId;

LineIn lineIn;
uint32_t lastByteAt = 0;

#if BOARD_LEDS
/** Green, red, blue per LED, in the order the strip wants them. */
uint8_t pixels[CELLS * 3];
bool ledsDirty = false;
volatile uint8_t* ledOut;
uint8_t ledMask;
#endif

// ---------------------------------------------------------------------------------------------
// The switches

/**
 * Latches every input, then shifts the chain out, first chip first, D7 first. One byte more
 * than the squares need is read: the last chip's serial input is tied high, so it must read
 * 0xFF; anything else means the chain is broken or shorter than the board.
 */
static bool readChain(uint8_t raw[CHIPS]) {
  *loadOut &= ~loadMask;
  delayMicroseconds(1);
  *loadOut |= loadMask;
  uint8_t extra = 0;
  for (uint8_t k = 0; k <= CHIPS; k++) {
    uint8_t v = 0;
    for (uint8_t b = 0; b < 8; b++) {
      v = (v << 1) | ((*dataIn & dataMask) ? 1 : 0);
      *clockOut |= clockMask;
      *clockOut &= ~clockMask;
    }
    if (k < CHIPS) {
      raw[k] = v;
    } else {
      extra = v;
    }
  }
  return extra == 0xFF;
}

/**
 * Vertical counters: every square has a two-bit counter, kept as bit planes so eight squares
 * count at once. A read that agrees with the debounced state resets the square's counter; the
 * fourth disagreeing read in a row flips the state. Returns the squares that flipped.
 */
static uint8_t debounce(uint8_t sample, uint8_t& state, uint8_t& c0, uint8_t& c1) {
  const uint8_t differs = sample ^ state;
  c0 = ~(c0 & differs);
  c1 = c0 ^ (c1 & differs);
  const uint8_t flip = differs & c0 & c1;
  state ^= flip;
  return flip;
}

/** Reads the switches and buttons; returns whether a square changed. */
static bool scan(bool first) {
  uint8_t raw[CHIPS];
  const bool chainOk = readChain(raw);
  if (chainOk != !chainFault) {
    chainFault = !chainOk;
    if (chainFault) reportChain();
  }
  bool changed = false;
  for (uint8_t k = 0; k < CHIPS; k++) {
    uint8_t sample = ~raw[k];  // a closed switch pulls its input low
    if (k == CHIPS - 1 && (CELLS & 7) != 0) sample &= (1 << (CELLS & 7)) - 1;
    if (first) {
      occupied[k] = sample;
      count0[k] = count1[k] = 0xFF;
    } else if (debounce(sample, occupied[k], count0[k], count1[k])) {
      changed = true;
    }
  }
  uint8_t pressed = 0;
  for (uint8_t i = 0; i < 3; i++) pressed |= digitalRead(BUTTON_PINS[i]) == LOW ? 1 << i : 0;
  if (first) {
    buttons = pressed;
    return false;
  }
  static const char names[3][5] PROGMEM = {"ok", "undo", "help"};
  const uint8_t flip = debounce(pressed, buttons, buttonCount0, buttonCount1);
  for (uint8_t i = 0; i < 3; i++) {
    // A press, not a release.
    if (!(flip & buttons & (1 << i))) continue;
    out.begin();
    out.text(PSTR("BTN "));
    out.text(names[i]);
    out.end();
  }
  return changed;
}

static void reportChain() {
  chainReportedAt = millis();
  out.begin();
  out.text(PSTR("ERR chain shift registers do not answer"));
  out.end();
}

// ---------------------------------------------------------------------------------------------
// The LEDs

#if BOARD_LEDS
/** Where square `cell` sits on the strip. */
static uint16_t pixelOf(uint8_t cell) {
  const uint8_t row = cell / COLS;
  const uint8_t col = cell % COLS;
  return (uint16_t)row * COLS + (LED_SERPENTINE && (row & 1) ? COLS - 1 - col : col);
}

/**
 * Sends every pixel to the strip: 800 kbit/s, 20 cycles a bit at 16 MHz. A 0 is high for
 * 6 cycles (0.375 us), a 1 for 13 (0.81 us); both paths through the bit take the same 20
 * cycles. Interrupts must wait: 169 LEDs take 5.1 ms, long enough to lose serial bytes, which
 * is why showLeds() waits for a quiet line.
 */
static void sendPixels() {
  const uint8_t sreg = SREG;
  cli();
  const uint8_t high = *ledOut | ledMask;
  const uint8_t low = *ledOut & ~ledMask;
  const uint8_t* p = pixels;
  uint16_t bytes = sizeof pixels;
  uint8_t byte = 0;
  uint8_t bits = 0;
  asm volatile(
      "1:                    \n\t"
      "ld   %[byte], %a[p]+  \n\t"  // 2
      "ldi  %[bits], 8       \n\t"  // 1
      "2:                    \n\t"
      "st   %a[port], %[high]\n\t"  // 2  cycle 0: the line goes high
      "nop                   \n\t"  // 1
      "nop                   \n\t"  // 1
      "nop                   \n\t"  // 1
      "sbrs %[byte], 7       \n\t"  // 1, or 2 skipping the next
      "st   %a[port], %[low] \n\t"  // 2  cycle 6: a 0 ends its high
      "sbrc %[byte], 7       \n\t"  // 2 skipping, or 1
      "rjmp .+0              \n\t"  // 2  (a 1 waits here what a 0 spent above)
      "nop                   \n\t"  // 1  cycle 10 on both paths
      "nop                   \n\t"  // 1
      "nop                   \n\t"  // 1
      "st   %a[port], %[low] \n\t"  // 2  cycle 13: a 1 ends its high
      "lsl  %[byte]          \n\t"  // 1
      "dec  %[bits]          \n\t"  // 1
      "nop                   \n\t"  // 1
      "brne 2b               \n\t"  // 2  cycle 20: the next bit
      "sbiw %[bytes], 1      \n\t"  // 2  (the low between bytes is a few cycles longer)
      "brne 1b               \n\t"  // 2
      : [byte] "=&r"(byte), [bits] "=&d"(bits), [p] "+e"(p), [bytes] "+w"(bytes)
      : [port] "e"(ledOut), [high] "r"(high), [low] "r"(low)
      : "memory");
  SREG = sreg;
}

/**
 * While the strip is fed the UART cannot be served, and bytes from the service would be lost.
 * So the LEDs are refreshed only when no line is coming in and the line has been quiet for a
 * moment: a burst of LED commands is taken in whole, then shown at once.
 */
static void showLeds() {
  if (!ledsDirty) return;
  const uint32_t now = millis();
  if (Serial.available() != 0 || lineIn.open() || now - lastByteAt < LED_QUIET_MS) return;
  Serial.flush();  // our own answer goes out first: the transmitter needs interrupts too
  sendPixels();
  ledsDirty = false;
}

static void setPixel(uint8_t cell, const uint8_t rgb[3]) {
  uint8_t* px = &pixels[pixelOf(cell) * 3];
  px[0] = rgb[1];
  px[1] = rgb[0];
  px[2] = rgb[2];
  ledsDirty = true;
}
#endif

// ---------------------------------------------------------------------------------------------
// Lines out

/** An ATmega328P has no serial number: at its first power-on the board draws one from a floating pin's noise. */
static void loadId() {
  Stored stored;
  eeprom_read_block(&stored, (const void*)0, sizeof stored);
  if (stored.magic != MAGIC) {
    uint32_t h = 2166136261UL;
    for (uint8_t i = 0; i < 32; i++) {
      h = (h ^ (analogRead(NOISE_PIN) & 0xFF)) * 16777619UL;
      h = (h ^ (micros() & 0xFF)) * 16777619UL;
    }
    stored.magic = MAGIC;
    stored.id = h;
    eeprom_update_block(&stored, (void*)0, sizeof stored);
  }
  boardId = stored.id;
}

static void sendHello() {
  out.begin();
  out.text(PSTR("HELLO proto=1 fw=" FIRMWARE " board=grid id="));
  for (int8_t shift = 28; shift >= 0; shift -= 4) out.hexDigit(boardId >> shift);
  out.text(PSTR(" cols=" STR(BOARD_COLS) " rows=" STR(BOARD_ROWS) " sense=occupancy"));
  out.end();
}

static void sendFrame() {
  out.begin();
  out.text(PSTR("G "));
  out.u32(frameSeq++);
  out.put(' ');
  // Most significant digit first: the last digit holds squares 0-3.
  for (int8_t d = HEX_DIGITS - 1; d >= 0; d--) out.hexDigit(occupied[d >> 1] >> ((d & 1) * 4));
  out.end();
  const uint32_t now = millis();
  nextFrameAt = (int32_t)(now - nextFrameAt) >= 0 && now - nextFrameAt < framePeriodMs ? nextFrameAt + framePeriodMs : now + framePeriodMs;
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

#if !BOARD_LEDS
static void replyNoLeds() {
  out.begin();
  out.text(PSTR("ERR unsupported no LEDs on this board"));
  out.end();
}
#endif

static void handleLine() {
  const char* body = lineIn.body();
  const Command command = parseCommand(body, lineIn.truncated());
  switch (command.kind) {
    case CMD_HELLO:
      sendHello();
      return;
    case CMD_TARE:
    case CMD_CAL:
      out.begin();
      out.text(PSTR("ERR unsupported no load cells on this board"));
      out.end();
      return;
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
    case CMD_LED:
#if BOARD_LEDS
      if (command.cell >= CELLS) return replyCellRange(CELLS);
      {
        static const uint8_t dark[3] = {0, 0, 0};
        setPixel(command.cell, command.flag ? dark : command.rgb);
      }
      return replyOk(body);
#else
      return replyNoLeds();
#endif
    case CMD_LEDS_OFF:
#if BOARD_LEDS
      for (uint8_t c = 0; c < CELLS; c++) {
        static const uint8_t dark[3] = {0, 0, 0};
        setPixel(c, dark);
      }
      return replyOk(body);
#else
      return replyNoLeds();
#endif
    case CMD_SYNTAX:
    case CMD_UNKNOWN:
      return replyUnparsed(command, body);
  }
}

static void pollSerial() {
  while (Serial.available() > 0) {
    lastByteAt = millis();
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
  pinMode(LOAD_PIN, OUTPUT);
  digitalWrite(LOAD_PIN, HIGH);
  pinMode(CLOCK_PIN, OUTPUT);
  digitalWrite(CLOCK_PIN, LOW);
  pinMode(DATA_PIN, INPUT);
  for (uint8_t i = 0; i < 3; i++) pinMode(BUTTON_PINS[i], INPUT_PULLUP);
  loadOut = portOutputRegister(digitalPinToPort(LOAD_PIN));
  loadMask = digitalPinToBitMask(LOAD_PIN);
  clockOut = portOutputRegister(digitalPinToPort(CLOCK_PIN));
  clockMask = digitalPinToBitMask(CLOCK_PIN);
  dataIn = portInputRegister(digitalPinToPort(DATA_PIN));
  dataMask = digitalPinToBitMask(DATA_PIN);
#if BOARD_LEDS
  pinMode(LED_PIN, OUTPUT);
  digitalWrite(LED_PIN, LOW);
  ledOut = portOutputRegister(digitalPinToPort(LED_PIN));
  ledMask = digitalPinToBitMask(LED_PIN);
  // LEDs keep their colour through a reset of the Arduino: start dark.
  ledsDirty = true;
#endif
  loadId();
  Serial.begin(115200);
  sendHello();
  // The state at power-on is taken as it is, without waiting for it to settle.
  scan(true);
  lastScanAt = millis();
  nextFrameAt = millis();
  nextHeartbeatAt = millis() + 1000;
}

void loop() {
  pollSerial();
  const uint32_t now = millis();
  if (now - lastScanAt >= SCAN_MS) {
    lastScanAt += SCAN_MS;
    if (now - lastScanAt >= SCAN_MS) lastScanAt = now;  // fell behind (a long LED refresh): catch up once
    // A change goes out at once; the next scheduled frame follows a period after it.
    if (scan(false)) sendFrame();
  }
  if (chainFault && now - chainReportedAt >= FAULT_REPEAT_MS) reportChain();
  // Answers are as long as the commands they answer: while commands come in, a frame on top
  // would let them pile up past the 64-byte receive buffer. So a frame waits for the answers.
  const int32_t late = (int32_t)(now - nextFrameAt);
  if (late >= 0 && (Serial.available() == 0 || late >= FRAME_DEFER_MS)) sendFrame();
  if ((int32_t)(now - nextHeartbeatAt) >= 0) {
    sendHeartbeat();
    nextHeartbeatAt += 1000;
    digitalWrite(STATUS_LED_PIN, chainFault || (heartbeatSeq & 1));
  }
#if BOARD_LEDS
  showLeds();
#endif
  idle();
}
