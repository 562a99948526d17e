package org.rapaio.jupyter.kernel;

import org.rapaio.jupyter.kernel.core.RapaioKernel;

/** Test stand-in with the members of rapaio-jupyter-kernel that fsil.notebook.KernelDisplay uses (see KernelApiTest). */
public class MainApp {
    public static final RapaioKernel kernel = new RapaioKernel();
}
