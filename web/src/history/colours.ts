// How each side, seat and winner looks in a chart: the boards' Okabe–Ito colours, and a second cue (dash, point
// shape) for anyone who cannot tell the colours apart.
import { PLAYER_STYLES, type PlayerStyle } from '../board/index.ts';

export interface LineLook {
  readonly colour: string;
  /** Canvas dash pattern; [] for a solid line. */
  readonly dash: readonly number[];
  /** Chart.js point style, shown in the legend. */
  readonly point: 'circle' | 'rect' | 'triangle' | 'rectRot' | 'star' | 'crossRot';
  /** Turns the point style: 180 makes a triangle point down. */
  readonly rotation: number;
}

const POINTS: Readonly<Record<PlayerStyle['shape'], readonly [LineLook['point'], number]>> = {
  circle: ['circle', 0],
  square: ['rect', 0],
  triangle: ['triangle', 0],
  diamond: ['rectRot', 0],
  'triangle-down': ['triangle', 180],
  hexagon: ['star', 0],
};
const DASHES: readonly (readonly number[])[] = [[], [10, 5], [3, 4], [12, 4, 3, 4], [6, 6], [2, 2]];

/** South light blue and solid, north orange and dashed, the knights white and dotted; seats as on the boards. */
export function lineLook(key: string): LineLook {
  switch (key) {
    case 'south':
      return { colour: '#56b4e9', dash: [], point: 'circle', rotation: 0 };
    case 'north':
      return { colour: '#e69f00', dash: [10, 5], point: 'rect', rotation: 0 };
    case 'knights':
      return { colour: '#ffffff', dash: [2, 4], point: 'crossRot', rotation: 0 };
    case 'team':
      return { colour: '#009e73', dash: [], point: 'star', rotation: 0 };
    case 'draw':
      return { colour: '#c8c8c8', dash: [], point: 'rect', rotation: 0 };
    default: {
      const seat = /^\d+$/.test(key) ? Number(key) : 1;
      const style = PLAYER_STYLES[(seat - 1) % PLAYER_STYLES.length];
      const [point, rotation] = POINTS[style.shape];
      return { colour: style.colour, dash: DASHES[(seat - 1) % DASHES.length], point, rotation };
    }
  }
}
