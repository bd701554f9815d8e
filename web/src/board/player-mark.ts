// Drawing a seat's mark: its shape in its colour, on a board or as a small icon beside a player's name.
import { html, svg, type SVGTemplateResult, type TemplateResult } from 'lit';
import type { Point } from './layout.ts';
import { playerStyle, pointsAttribute, shapeGeometry, type ShapeOutline } from './players.ts';

/** One outline as an SVG element; colours come as attributes, so it draws the same in any shadow root. */
export function outlineElement(outline: ShapeOutline, attrs: { cls: string; fill: string; stroke: string; width: number; dash?: string }): SVGTemplateResult {
  const { cls, fill, stroke, width } = attrs;
  const dash = attrs.dash ?? 'none';
  switch (outline.kind) {
    case 'circle':
      return svg`<circle class=${cls} cx=${outline.cx} cy=${outline.cy} r=${outline.r} fill=${fill} stroke=${stroke}
        stroke-width=${width} stroke-dasharray=${dash}></circle>`;
    case 'rect':
      return svg`<rect class=${cls} x=${outline.x} y=${outline.y} width=${outline.width} height=${outline.height} rx=${outline.rx}
        fill=${fill} stroke=${stroke} stroke-width=${width} stroke-dasharray=${dash}></rect>`;
    case 'polygon':
      return svg`<polygon class=${cls} points=${pointsAttribute(outline.points)} fill=${fill} stroke=${stroke}
        stroke-width=${width} stroke-dasharray=${dash} stroke-linejoin="round"></polygon>`;
    default:
      return outline satisfies never;
  }
}

export interface PieceOptions {
  /** The rim's colour: light by default, so dark colours stand off a dark board. */
  readonly rim?: string;
  readonly rimWidth?: number;
  /** A dashed rim (a piece that never moves). */
  readonly dash?: string;
  /** A second, inner outline in the label's colour: a double border (a king). */
  readonly inner?: boolean;
  readonly labelSize?: number;
}

/**
 * A player's piece: their shape filled with their colour, a rim, and `label` (their number, or the piece's name)
 * in the colour that reads on the fill.
 */
export function playerPiece(player: number, c: Point, r: number, label: string, options: PieceOptions = {}): SVGTemplateResult {
  const style = playerStyle(player);
  const geometry = shapeGeometry(style.shape, c, r);
  const size = options.labelSize ?? r * 0.95;
  const rim = { cls: 'player-piece', fill: style.colour, stroke: options.rim ?? '#f3ecd9', width: options.rimWidth ?? r * 0.1 };
  return svg`${outlineElement(geometry.outline, options.dash ? { ...rim, dash: options.dash } : rim)}
    ${options.inner
      ? outlineElement(shapeGeometry(style.shape, c, r * 0.8).outline, { cls: 'inner-rim', fill: 'none', stroke: style.ink, width: r * 0.06 })
      : null}
    ${label
      ? svg`<text class="piece-label" x=${geometry.label.x} y=${geometry.label.y} fill=${style.ink}
          font-size=${size} font-weight="800" text-anchor="middle" dominant-baseline="central">${label}</text>`
      : null}`;
}

/** A small mark for text: the player's shape and colour with their number, e.g. beside "Spieler 3". */
export function playerIcon(player: number): TemplateResult {
  return html`<svg class="player-icon" viewBox="-70 -70 140 140" aria-hidden="true">
    ${playerPiece(player, { x: 0, y: 0 }, 50, String(player), { rim: '#000000', labelSize: 62 })}
  </svg>`;
}
