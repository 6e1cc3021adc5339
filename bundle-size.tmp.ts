import { build } from 'esbuild';
import { LAMBDA_BUNDLE_OPTIONS } from './test/support/lambda-bundle';
for (const fn of process.argv.slice(2)) {
  const r = await build({ ...LAMBDA_BUNDLE_OPTIONS, entryPoints: [`functions/${fn}/handler.ts`], write: false, outfile: `/tmp/b-${fn}.mjs` });
  const out = Object.values(r.metafile!.outputs)[0]!;
  const shared = Object.entries(out.inputs).filter(([p, i]) => p.startsWith('shared/') && i.bytesInOutput > 0).sort((a,b)=>b[1].bytesInOutput-a[1].bytesInOutput).slice(0,12).map(([p,i])=>`${p}:${i.bytesInOutput}`);
  console.log(fn, r.outputFiles![0]!.contents.length, shared.join(' '));
}
