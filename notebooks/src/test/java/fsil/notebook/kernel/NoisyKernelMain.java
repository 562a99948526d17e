package fsil.notebook.kernel;

/** Stands in for the kernel's main class: its static initialiser prints what rapaio-jupyter-kernel 3.0.1 prints. */
final class NoisyKernelMain {
    static final int JARS = 57;

    static {
        System.out.println("Parsing classpath: /k/lib/*.jar");
        for (int i = 0; i < JARS; i++) {
            System.out.println("Add /k/lib/jar-" + i + ".jar to classpath");
        }
        System.out.println("something else the kernel says");
        System.out.print("a last line without its end");
    }

    private NoisyKernelMain() {
    }
}
