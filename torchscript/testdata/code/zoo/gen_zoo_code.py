# m.code of ../shared/models/*.traced.pt (PyTorch 1.13 archives) as PyTorch 2.6 prints it;
# run with /work/shared/tools/torch2 beside copies of the .traced.pt files.
import torch, glob, os
for p in sorted(glob.glob('*.traced.pt')):
    m = torch.jit.load(p)
    name = os.path.basename(p)[:-len('.traced.pt')]
    with open(name + '.code.txt', 'w') as f:
        f.write('# PyTorch ' + torch.__version__ + '\n# method forward\n' + m.code + '\n')
