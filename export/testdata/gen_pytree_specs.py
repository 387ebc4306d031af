# Makes pytree_specs.tsv: each in_spec/out_spec JSON of ../shared/pt2 (PyTorch 2.6) with the
# repr its io.json gives (whitespace folded). Run: python3 gen_pytree_specs.py > pytree_specs.tsv
import zipfile,glob,json,re
# in_spec/out_spec JSON of every shared program, with the repr io.json gives
seen=set()
for f in sorted(glob.glob('/work/shared/pt2/*.pt2')):
    if f.endswith('.core.pt2'): continue
    z=zipfile.ZipFile(f)
    n=[x for x in z.namelist() if x.endswith('serialized_exported_program.json')][0]
    d=json.loads(z.read(n))
    io=json.load(open(f[:-4]+'.io.json'))
    root=d['graph_module']['module_call_graph'][0]['signature']
    for k in ('in_spec','out_spec'):
        js=root[k]; rep=' '.join(io['extra'][k].split())
        if js in seen: continue
        seen.add(js)
        print(js+'\t'+rep)
