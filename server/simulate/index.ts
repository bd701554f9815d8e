// The simulation folder's public face: simulated Kalaha players and generated sensor traces with ground truth.
export {
  CAPTURE_STYLES,
  planKalahaGame,
  sowingOrder,
  type CaptureStyle,
  type KalahaGamePlan,
  type KalahaHandling,
  type KalahaPlanEvent,
  type KalahaPlayerOptions,
} from './kalaha-player.ts';
export { formatRecordText, generateKalahaTrace, pitLetter, type KalahaTrace, type KalahaTraceOptions, type KalahaTruth } from './kalaha-trace.ts';
export { KALAHA_FIXTURES, generateFixture, stringifyTruth, writeKalahaFixtures, type KalahaFixture } from './kalaha-fixtures.ts';
export { playKalahaGames, setUpActions, type LiveKalaha, type LiveKalahaOptions } from './kalaha-live.ts';
export { formatTruthJson } from './truth-json.ts';
export {
  CORRECTIONS,
  HANDLINGS,
  MALAWI_COLOURS,
  malawiBoardSetup,
  malawiLayout,
  planMalawiGame,
  type Correction,
  type Handling,
  type MalawiGamePlan,
  type MalawiPlanEvent,
  type MalawiPlayerOptions,
} from './malawi-player.ts';
export {
  answersOf,
  formatMalawiRecord,
  generateMalawiTrace,
  type MalawiQuestion,
  type MalawiTrace,
  type MalawiTraceOptions,
  type MalawiTruth,
} from './malawi-trace.ts';
export { MALAWI_FIXTURES, generateMalawiFixture, stringifyMalawiTruth, writeMalawiFixtures, type MalawiFixture } from './malawi-fixtures.ts';
export { playMalawiGames, setUpMalawiActions, type LiveMalawi, type LiveMalawiOptions } from './malawi-live.ts';
export {
  ADU_COLOURS,
  ADU_CORRECTIONS,
  ADU_HANDLINGS,
  ADU_RESERVE_COLOUR,
  aduBoardSetup,
  aduColour,
  planAduGame,
  type AduCorrection,
  type AduGamePlan,
  type AduHandling,
  type AduPlanEvent,
  type AduPlayerOptions,
} from './adu-player.ts';
export { aduAnswersOf, formatAduRecord, generateAduTrace, type AduConsoleQuestion, type AduTrace, type AduTraceOptions, type AduTruth } from './adu-trace.ts';
export { ADU_FIXTURES, generateAduFixture, writeAduFixtures, type AduFixture } from './adu-fixtures.ts';
export { clearAduBoardActions, playAduGames, type LiveAdu, type LiveAduOptions } from './adu-live.ts';
export {
  KNIGHT_COLOUR,
  MAKIS_COLOURS,
  MAKIS_CORRECTIONS,
  MAKIS_HANDLINGS,
  makisBoardSetup,
  makisLayout,
  makisOccupancy,
  planMakisGame,
  type MakisCorrection,
  type MakisGamePlan,
  type MakisHandling,
  type MakisPlanEvent,
  type MakisPlayerOptions,
  type ResetAlert,
} from './makis-player.ts';
export { formatMakisRecord, generateMakisTrace, makisAnswersOf, type MakisExpectedAlert, type MakisTrace, type MakisTraceOptions, type MakisTruth } from './makis-trace.ts';
export { MAKIS_FIXTURES, generateMakisFixture, stringifyMakisTruth, writeMakisFixtures, type MakisFixture } from './makis-fixtures.ts';
export { playMakisGames, setUpMakisActions, type LiveMakis, type LiveMakisOptions } from './makis-live.ts';
export { CALM_PEOPLE, harshPeople, peopleWith, type PeopleModel } from './people.ts';
