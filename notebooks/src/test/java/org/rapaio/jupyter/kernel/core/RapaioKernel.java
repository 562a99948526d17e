package org.rapaio.jupyter.kernel.core;

import org.rapaio.jupyter.kernel.display.DisplayData;

import java.util.ArrayList;
import java.util.List;

/** Test stand-in: records what is displayed. */
public class RapaioKernel {
    public final List<DisplayData> shown = new ArrayList<>();

    public void display(DisplayData data) {
        shown.add(data);
    }
}
