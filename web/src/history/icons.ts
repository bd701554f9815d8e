// The replay buttons' pictures as inline SVG: the media-control characters (⏮ ⏭ ⏸) are missing from many fonts.
import { svg, type SVGTemplateResult } from 'lit';

export type ReplayIcon = 'first' | 'prev' | 'play' | 'pause' | 'next' | 'last';

const PATHS: Readonly<Record<ReplayIcon, string>> = {
  first: 'M4 4h3v16H4z M20 4v16L8 12z',
  prev: 'M15.5 4 17.6 6.1 11.7 12l5.9 5.9-2.1 2.1-8-8z',
  play: 'M6 4v16l14-8z',
  pause: 'M6 4h4v16H6z M14 4h4v16h-4z',
  next: 'M8.5 4 6.4 6.1l5.9 5.9-5.9 5.9 2.1 2.1 8-8z',
  last: 'M17 4h3v16h-3z M4 4v16l12-8z',
};

export function replayIcon(icon: ReplayIcon): SVGTemplateResult {
  return svg`<svg class="icon" viewBox="0 0 24 24" width="1.2em" height="1.2em" aria-hidden="true" focusable="false"><path fill="currentColor" d=${PATHS[icon]}></path></svg>`;
}
