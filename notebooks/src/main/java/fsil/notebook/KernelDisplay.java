package fsil.notebook;

import java.io.PrintStream;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Where {@link Show} sends a MIME bundle (MIME type to content, e.g. {@code text/html} and {@code text/plain}):
 * the display function of the Jupyter kernel this JVM runs in, found reflectively so that fsil depends on no
 * kernel, or standard output when there is no kernel.
 *
 * <p>Known kernels, tried in this order:
 * <ul>
 *   <li>rapaio-jupyter-kernel: {@code org.rapaio.jupyter.kernel.MainApp.kernel} (a static field) and its
 *   {@code display(org.rapaio.jupyter.kernel.display.DisplayData)}; the bundle is built with the static factory
 *   {@code DisplayData.fromText(String)} and {@code putData(String, Object)}. Because initialising {@code MainApp}
 *   starts a kernel, it is only used when the JVM was launched with it (its jar, its main class or fsil's
 *   {@code RapaioLauncher} is the launcher command), never merely because the jar is on the classpath.</li>
 *   <li>IJava: {@code io.github.spencerpark.ijava.IJava.getKernelInstance()}, whose {@code display(DisplayData)}
 *   takes {@code io.github.spencerpark.jupyter.kernel.display.DisplayData} (public no-argument constructor,
 *   {@code putData(String, Object)}).</li>
 *   <li>JJava (IJava's successor): {@code org.dflib.jjava.JJava.getKernelInstance()}, the same shape under
 *   {@code org.dflib.jjava.jupyter.kernel.display.DisplayData}.</li>
 * </ul>
 * These signatures are checked against the published jars by {@code KernelApiTest}.
 */
interface KernelDisplay {

    /** A short name: {@code rapaio}, {@code ijava}, {@code jjava} or {@code text}. */
    String name();

    /** Shows one bundle (insertion order = preference order is irrelevant to Jupyter; text/plain is the fallback). */
    void show(Map<String, String> bundle);

    /** Prints the {@code text/plain} entry (or nothing) to a stream: the fallback outside Jupyter. */
    static KernelDisplay text(PrintStream out) {
        return new KernelDisplay() {
            @Override
            public String name() {
                return "text";
            }

            @Override
            public void show(Map<String, String> bundle) {
                String text = bundle.get(Show.TEXT);
                if (text != null) {
                    out.println(text);
                    out.flush();
                }
            }
        };
    }

    /**
     * The display of the kernel this JVM runs in, or the text fallback.
     *
     * @param loader          where the kernel's classes are visible (in JShell: the loader of the snippet classes)
     * @param launcherCommand the JVM's launcher command ({@code sun.java.command}), to tell whether rapaio's
     *                        kernel is running rather than only present on the classpath
     * @param out             stream of the text fallback
     */
    static KernelDisplay find(ClassLoader loader, String launcherCommand, PrintStream out) {
        for (Supplier<KernelDisplay> candidate : List.<Supplier<KernelDisplay>>of(
                () -> rapaio(loader, launcherCommand),
                () -> staticInstance("ijava", loader, "io.github.spencerpark.ijava.IJava",
                        "io.github.spencerpark.jupyter.kernel.display.DisplayData"),
                () -> staticInstance("jjava", loader, "org.dflib.jjava.JJava",
                        "org.dflib.jjava.jupyter.kernel.display.DisplayData"))) {
            KernelDisplay d = candidate.get();
            if (d != null) {
                return d;
            }
        }
        return text(out);
    }

    private static Class<?> load(ClassLoader loader, String name, boolean initialize) {
        try {
            return Class.forName(name, initialize, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }

    /** rapaio-jupyter-kernel, if this JVM was launched as that kernel. */
    private static KernelDisplay rapaio(ClassLoader loader, String launcherCommand) {
        String mainName = "org.rapaio.jupyter.kernel.MainApp";
        Class<?> main = load(loader, mainName, false);
        if (main == null || launcherCommand == null || !launchedWith(main, mainName, launcherCommand)) {
            return null;
        }
        try {
            Field f = main.getField("kernel");
            if (!Modifier.isStatic(f.getModifiers())) {
                return null;
            }
            Object kernel = f.get(null);
            Class<?> data = load(main.getClassLoader(), "org.rapaio.jupyter.kernel.display.DisplayData", true);
            if (kernel == null || data == null) {
                return null;
            }
            Method fromText = data.getMethod("fromText", String.class);
            return reflective("rapaio", kernel, data, () -> fromText.invoke(null, ""));
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return null;
        }
    }

    /**
     * True if the launcher command starts with the main class, with the jar that holds it, or with fsil's kernel
     * launcher ({@link fsil.notebook.kernel.RapaioLauncher}, which runs that main class).
     */
    static boolean launchedWith(Class<?> main, String mainName, String launcherCommand) {
        String first = launcherCommand.strip().split("\\s+", 2)[0];
        if (first.equals(mainName) || first.equals(fsil.notebook.kernel.RapaioLauncher.class.getName())) {
            return true;
        }
        try {
            var source = main.getProtectionDomain().getCodeSource();
            if (source == null || !first.endsWith(".jar")) {
                return false;
            }
            java.nio.file.Path jar = java.nio.file.Path.of(source.getLocation().toURI()).toRealPath();
            return java.nio.file.Path.of(first).toRealPath().equals(jar);
        } catch (Exception e) {
            return false;
        }
    }

    /** A kernel reached through a static {@code getKernelInstance()} whose DisplayData has a public constructor. */
    private static KernelDisplay staticInstance(String name, ClassLoader loader, String kernelClass, String dataClass) {
        Class<?> k = load(loader, kernelClass, true);
        if (k == null) {
            return null;
        }
        try {
            Object kernel = k.getMethod("getKernelInstance").invoke(null);
            Class<?> data = load(k.getClassLoader(), dataClass, true);
            if (kernel == null || data == null) {
                return null;
            }
            var ctor = data.getConstructor();
            return reflective(name, kernel, data, ctor::newInstance);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return null;
        }
    }

    /** Creates an empty DisplayData. */
    @FunctionalInterface
    interface DataFactory {
        Object create() throws ReflectiveOperationException;
    }

    private static KernelDisplay reflective(String name, Object kernel, Class<?> dataClass, DataFactory factory)
            throws NoSuchMethodException {
        Method put = dataClass.getMethod("putData", String.class, Object.class);
        Method display = kernel.getClass().getMethod("display", dataClass);
        return new KernelDisplay() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public void show(Map<String, String> bundle) {
                try {
                    Object data = factory.create();
                    for (Map.Entry<String, String> e : new LinkedHashMap<>(bundle).entrySet()) {
                        put.invoke(data, e.getKey(), e.getValue());
                    }
                    display.invoke(kernel, data);
                } catch (InvocationTargetException e) {
                    throw new IllegalStateException("the " + name + " kernel's display failed: " + e.getCause(),
                            e.getCause());
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException("cannot call the " + name + " kernel's display: " + e, e);
                }
            }
        };
    }
}
