package fsil.notebook;

import fsil.api.FsilException;
import fsil.api.Method;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/**
 * The methods of a plugin jar, loaded by a class loader of their own, so that a rebuilt jar can be loaded again in
 * a running notebook kernel (see {@link Fsil#methodsIn(Path)}). The loader looks for a class in the jar first and
 * asks the kernel's class path only for the rest (fsil's api, the JDK, libraries): a new loader for the rebuilt jar
 * therefore defines the new versions of the plugin's classes, even if an older copy is on the kernel's class path.
 */
final class PluginJar extends URLClassLoader {
    static {
        registerAsParallelCapable();
    }

    private PluginJar(Path jar, ClassLoader parent) throws MalformedURLException {
        super("fsil-plugin:" + jar.getFileName(), new URL[]{jar.toUri().toURL()}, parent);
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        synchronized (getClassLoadingLock(name)) {
            Class<?> c = findLoadedClass(name);
            if (c == null && !name.startsWith("java.") && !name.startsWith("fsil.api.")
                    && findResource(name.replace('.', '/') + ".class") != null) {
                c = findClass(name);
            }
            if (c == null) {
                return super.loadClass(name, resolve);
            }
            if (resolve) {
                resolveClass(c);
            }
            return c;
        }
    }

    /** Every {@link Method} the jar lists in META-INF/services/fsil.api.Method, from a fresh loader. */
    static List<Method> methods(Path jar, ClassLoader parent) {
        if (!Files.isRegularFile(jar)) {
            throw new FsilException("no plugin jar at " + jar.toAbsolutePath() + " (build it first, e.g. mvn package)");
        }
        PluginJar loader;
        try {
            loader = new PluginJar(jar.toAbsolutePath(), parent);
        } catch (MalformedURLException e) {
            throw new UncheckedIOException(e);
        }
        List<Method> out = new ArrayList<>();
        try {
            for (ServiceLoader.Provider<Method> p : ServiceLoader.load(Method.class, loader).stream().toList()) {
                if (p.type().getClassLoader() == loader) {   // the jar's own providers, not the kernel's
                    out.add(p.get());
                }
            }
        } catch (java.util.ServiceConfigurationError e) {
            throw new FsilException("cannot load the methods of " + jar + ": " + e.getMessage(), e);
        }
        if (out.isEmpty()) {
            try {
                loader.close();
            } catch (IOException ignored) {
                // nothing was loaded from it
            }
            throw new FsilException(jar + " lists no method: add META-INF/services/fsil.api.Method with the class "
                    + "names of its Method implementations");
        }
        return out;
    }
}
