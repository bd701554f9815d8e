// The simulation folder's public face: simulated Kalaha players and generated sensor traces with ground truth.
export {
  CAPTURE_STYLES,
  planKalahaGame,
  sowingOrder,
  type CaptureStyle,
  type KalahaGamePlan,
  type KalahaPlanEvent,
  type KalahaPlayerOptions,
} from './kalaha-player.ts';
export { formatRecordText, generateKalahaTrace, pitLetter, type KalahaTrace, type KalahaTraceOptions, type KalahaTruth } from './kalaha-trace.ts';
export { KALAHA_FIXTURES, generateFixture, stringifyTruth, writeKalahaFixtures, type KalahaFixture } from './kalaha-fixtures.ts';
export { playKalahaGames, setUpActions, type LiveKalaha, type LiveKalahaOptions } from './kalaha-live.ts';
