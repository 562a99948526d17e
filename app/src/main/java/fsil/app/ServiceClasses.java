package fsil.app;

import fsil.api.FsilException;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The classes that {@code META-INF/services/<type>} files name, read as {@link java.util.ServiceLoader} reads them
 * (comments after '#', one class per line, a class named twice counted once) but without instantiating them, so that
 * the injector can: a plugin may then have an {@code @Inject} constructor (ServiceLoader requires a public
 * no-argument one, and fails on any other before it gives the class).
 */
final class ServiceClasses {
    private ServiceClasses() {
    }

    /** The classes listed for {@code type} on the context class loader (or this class's), in the files' order. */
    static <T> List<Class<? extends T>> of(Class<T> type) {
        ClassLoader cl = Thread.currentThread().getContextClassLoader();
        ClassLoader loader = cl != null ? cl : ServiceClasses.class.getClassLoader();
        Set<String> names = new LinkedHashSet<>();
        String file = "META-INF/services/" + type.getName();
        try {
            Enumeration<URL> urls = loader.getResources(file);
            while (urls.hasMoreElements()) {
                try (BufferedReader in = new BufferedReader(new InputStreamReader(urls.nextElement().openStream(),
                        StandardCharsets.UTF_8))) {
                    for (String line = in.readLine(); line != null; line = in.readLine()) {
                        String name = line.replaceFirst("#.*", "").strip();
                        if (!name.isEmpty()) {
                            names.add(name);
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new FsilException("cannot read " + file + ": " + e.getMessage(), e);
        }
        List<Class<? extends T>> out = new ArrayList<>();
        for (String name : names) {
            Class<?> c;
            try {
                c = Class.forName(name, false, loader);
            } catch (ClassNotFoundException | LinkageError e) {
                throw new FsilException(file + " names " + name + ", which is not on the class path");
            }
            if (!type.isAssignableFrom(c)) {
                throw new FsilException(file + " names " + name + ", which is not a " + type.getSimpleName());
            }
            out.add(c.asSubclass(type));
        }
        return out;
    }
}
