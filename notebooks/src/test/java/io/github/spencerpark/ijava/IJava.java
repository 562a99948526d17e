package io.github.spencerpark.ijava;

import io.github.spencerpark.jupyter.kernel.display.DisplayData;

import java.util.ArrayList;
import java.util.List;

/** Test stand-in for IJava: {@code getKernelInstance()} is null unless a test sets {@link #kernel}. */
public class IJava {
    public static volatile Kernel kernel;

    public static Kernel getKernelInstance() {
        return kernel;
    }

    /** Stands for IJava's JavaKernel (BaseKernel.display). */
    public static class Kernel {
        public final List<DisplayData> shown = new ArrayList<>();

        public void display(DisplayData data) {
            shown.add(data);
        }
    }
}
