// The Python that builds and tests the wheel: Debian's, whose packages
// (python3-wheel, -venv, mkdocs, jupyter-nbconvert, python3-ipykernel;
// tools/setup.sh) no Python package index needs to provide. A python3 met
// first on PATH (pyenv, say) has none of them.
import { existsSync } from 'node:fs';

export const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
