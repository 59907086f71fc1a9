// `npm run icons`: renders build/icon.svg, the one source of the Quayside icon, into every file
// the platforms need: build/icons/<size>x<size>.png (Linux, tray, favicon sources), build/icon.png
// (1024), build/icon.ico (Windows, browser-mode favicon) and build/icon.icns (macOS).
// The outputs are committed: electron-builder and the app read them at build time.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import png2icons from 'png2icons';
import sharp from 'sharp';
import { root } from './lib/setup.mjs';

export const PNG_SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024];

const buildDir = join(root, 'build');
const iconsDir = join(buildDir, 'icons');
const source = readFileSync(join(buildDir, 'icon.svg'));
mkdirSync(iconsDir, { recursive: true });

const render = (size) =>
  sharp(source, { density: Math.max(72, Math.ceil((72 * size) / 1024) * 4) })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toBuffer();

for (const size of PNG_SIZES) {
  writeFileSync(join(iconsDir, `${size}x${size}.png`), await render(size));
}
const master = await render(1024);
writeFileSync(join(buildDir, 'icon.png'), master);
const ico = png2icons.createICO(master, png2icons.BICUBIC2, 0, false, true);
const icns = png2icons.createICNS(master, png2icons.BICUBIC2, 0);
if (!ico || !icns) throw new Error('png2icons could not encode the icon');
writeFileSync(join(buildDir, 'icon.ico'), ico);
writeFileSync(join(buildDir, 'icon.icns'), icns);
console.error(`Icons written to ${buildDir}.`);
