/**
 * DOT to pictures with well-kept libraries: Graphviz compiled to WebAssembly (@viz-js/viz) lays
 * the graph out and writes SVG; resvg (@resvg/resvg-js) rasterises that SVG to PNG. The DOT is
 * dot.ts's; nothing here knows OVN. Both load on first use: the runtime is what every provider
 * call requires, and only a drawing needs the WebAssembly module or resvg's native binary. They
 * are optional peer dependencies (optionalPackage.ts): `-o dot` needs neither.
 */
import type { Viz } from '@viz-js/viz';
import { requireOptional } from '../optionalPackage';

let viz: Promise<Viz> | undefined;

/** The SVG Graphviz makes of `dot` (its `dot` layout). */
export async function dotToSvg(dot: string): Promise<string> {
  viz ??= Promise.resolve()
    .then(() => requireOptional<typeof import('@viz-js/viz')>('@viz-js/viz', 'ovnk diagram (-o svg, -o png)'))
    .then((m) => m.instance());
  const result = (await viz).render(dot, { format: 'svg', engine: 'dot' });
  if (result.status !== 'success')
    throw new Error(`graphviz could not lay the diagram out: ${result.errors.map((e) => e.message).join('; ')}`);
  return result.output;
}

/** A PNG of `svg` at `scale` times its size, on white (text in the system's fonts). */
export async function svgToPng(svg: string, scale = 1.5): Promise<Buffer> {
  const { Resvg } = requireOptional<typeof import('@resvg/resvg-js')>('@resvg/resvg-js', 'ovnk diagram -o png');
  const resvg = new Resvg(svg, {
    background: 'white',
    fitTo: { mode: 'zoom', value: scale },
    font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' },
  });
  return resvg.render().asPng();
}
