// German texts of every page: the default language, and the source of the message keys.
// Placeholders: `{name}` is a parameter; `{name|one|other}` picks the singular or plural by the number `name`.

export const de = {
  'page.display.title': 'Kalaha · Spieltisch Vauban',
  'page.referee.title': 'Schiedsrichterpult',
  'page.setup.title': 'Einrichtung',
  'page.games.title': 'Partien',
  'page.later': 'Diese Seite kommt in einer späteren Version.',
  'page.toDisplay': 'Zur Anzeige',

  'lang.choose': 'Sprache',
  'lang.de': 'Deutsch',
  'lang.en': 'English',

  'side.south': 'Süd',
  'side.north': 'Nord',

  'board.label': 'Kalaha-Brett',
  'board.pit': 'Mulde {pit}: {count} {count|Stein|Steine}',
  'board.store': 'Gewinn-Napf {side}: {count} {count|Stein|Steine}',
  'cell.pit': 'Mulde {pit}',
  'cell.store': 'Gewinn-Napf {side}',

  'legend.origin': 'gesät aus',
  'legend.sown': 'Stein dazubekommen',
  'legend.captured': 'geschlagen',
  'legend.diff': 'weicht vom Spiel ab',
  'legend.pending': 'in den Gewinn-Napf legen',

  'turn.toMove': '{side} ist am Zug',
  'turn.none': 'Niemand ist am Zug',

  'record.title': 'Partie',
  'record.empty': 'Noch kein Zug gespielt',
  'record.plies': '{count} {count|Zug|Züge}',
  'lastMove.title': 'Letzter Zug',
  'lastMove.sow': '{side} sät aus {pit}',
  'lastMove.captures': 'schlägt {pits}',
  'event.takeback': 'Zurückgenommen: {moves}',
  'event.new-game': 'Neues Spiel',

  'outcome.title': 'Spiel vorbei',
  'outcome.wins': '{side} gewinnt',
  'outcome.draw': 'Unentschieden',
  'outcome.score': 'Nord {north} · Süd {south}',
  'reason.no-stones': 'Der Spieler am Zug hat keine Steine mehr.',
  'reason.cannot-feed': 'Der Gegner hat keine Steine, und kein Zug kann ihm welche geben.',
  'reason.repetition': 'Dieselbe Stellung zum dritten Mal.',
  'reason.agreement': 'Beendet nach Absprache.',

  'alerts.title': 'Hinweise',
  'alerts.more': '+{count} {count|weiterer Hinweis|weitere Hinweise}',
  'alert.level.info': 'Hinweis',
  'alert.level.warn': 'Achtung',
  'alert.level.error': 'Fehler',
  'alert.cells': 'Abweichung: {cells}',

  'alert.kalaha/forbidden-capture': 'Mulde {pit} würde {stones} Steine schlagen — nicht erlaubt',
  'alert.kalaha/unfair-capture': 'Mulde {pit} würde dem Gegner alle {stones} Steine nehmen — nicht erlaubt',
  'alert.kalaha/capture-not-allowed':
    'Mulde {pit} darf gesät werden, aber nicht schlagen — bitte die geschlagenen Steine zurücklegen',
  'alert.kalaha/must-feed': 'Der Gegner hat keine Steine mehr: Der Zug muss ihm welche geben — Mulde {pit} tut das nicht',
  'alert.kalaha/not-your-pit': '{side} ist am Zug — Mulde {pit} gehört dem Gegner',
  'alert.kalaha/illegal-move': 'Mulde {pit} kann jetzt nicht gesät werden',
  'alert.kalaha/empty-pit': 'Mulde {pit} ist leer — eine leere Mulde kann nicht gesät werden',
  'alert.kalaha/game-over': 'Das Spiel ist schon zu Ende — kein Zug mehr möglich',
  'alert.referee/mismatch':
    'Das Brett weicht an {count} {count|Stelle|Stellen} vom Spiel ab — bitte die Steine wie markiert zurücklegen',
  'alert.referee/capture-pending': 'Geschlagene Steine aus {pits} in den Gewinn-Napf {store} legen',
  'alert.referee/sweep-pending': 'Spiel vorbei — bitte die übrigen Steine wie markiert in die Gewinn-Näpfe legen',
  'alert.referee/takeback': 'Rücknahme von {moves} erkannt — wartet auf Bestätigung',
  'alert.referee/ambiguous': 'Das Brett passt zu mehreren Zügen ({options}) — warte auf ein eindeutiges Bild',
  'alert.board/not-responding': 'Das Brett antwortet nicht — bitte Kabel und Strom prüfen',
  'alert.board/calibrating':
    'Das Brett wird kalibriert — bitte die Stellung des Spiels aufbauen (zu Beginn {seeds} Steine je Mulde)',

  'status.board.simulated': 'Brett simuliert',
  'status.board.serial': 'Brett verbunden',
  'status.board.trace': 'Brett: Aufzeichnung wird abgespielt',
  'status.board.none': 'Kein Brett',
  'status.board.notResponding': 'Brett antwortet nicht',
  'status.board.uncalibrated': 'nicht kalibriert',
  'status.link.connecting': 'Verbinde mit dem Spieltisch …',
  'status.link.unreachable': 'Spieltisch nicht erreichbar — neuer Versuch in {seconds} s',
  'status.link.retryIn': 'Verbindung verloren — neuer Versuch in {seconds} s',
  'status.link.retrying': 'Verbindung verloren — verbinde neu …',
  'status.link.stale': 'Stand von vor dem Verbindungsabbruch',
};

export type MessageKey = keyof typeof de;
/** A full catalogue: every key of the German one, no more. */
export type Catalogue = Readonly<Record<MessageKey, string>>;
