// `npm run icons`: renders build/icon.svg, the one source of the Quayside icon, into every file
// the platforms need: build/icons/<size>x<size>.png (Linux, tray, favicon sources), build/icon.png
// (1024), build/icon.ico (Windows, browser-mode favicon), build/icon.icns (macOS) and the
// Windows taskbar count overlays build/badges/<1..9, 9plus>.png.
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

// Windows has no numeric taskbar badge: the count goes on an overlay icon, one per label.
const badgesDir = join(buildDir, 'badges');
mkdirSync(badgesDir, { recursive: true });
for (const label of ['1', '2', '3', '4', '5', '6', '7', '8', '9', '9+']) {
  const badge = `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">
  <circle cx="32" cy="32" r="30" fill="#d62828" stroke="#ffffff" stroke-width="4"/>
  <text x="32" y="45" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" font-weight="bold"
    font-size="${label.length > 1 ? 30 : 38}" fill="#ffffff" text-anchor="middle">${label}</text>
</svg>`;
  const png = await sharp(Buffer.from(badge))
    .resize(32, 32)
    .png({ compressionLevel: 9 })
    .toBuffer();
  writeFileSync(join(badgesDir, `${label.replace('+', 'plus')}.png`), png);
}
console.error(`Icons written to ${buildDir}.`);
