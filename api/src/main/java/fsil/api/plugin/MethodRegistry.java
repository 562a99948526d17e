package fsil.api.plugin;

import fsil.api.FsilException;
import fsil.api.Method;
import jakarta.inject.Inject;

import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * The methods available in this process, by id. Built by Guice from {@link MethodsModule} (ServiceLoader
 * discovery plus programmatic additions); {@link #register} adds a method later, e.g. from a notebook cell.
 * Thread-safe.
 */
public final class MethodRegistry {
    private final Map<String, Method> methods = new TreeMap<>();

    @Inject
    public MethodRegistry(Map<String, Method> methods) {
        this.methods.putAll(methods);
    }

    /** Methods found by ServiceLoader on the context class loader (without Guice). */
    public static MethodRegistry discover() {
        MethodRegistry r = new MethodRegistry(Map.of());
        for (Method m : discoverAll()) {
            r.register(m);
        }
        return r;
    }

    /** What ServiceLoader finds on the context class loader. */
    public static Collection<Method> discoverAll() {
        ClassLoader cl = Thread.currentThread().getContextClassLoader();
        if (cl == null) {
            cl = MethodRegistry.class.getClassLoader();
        }
        Map<String, Method> found = new TreeMap<>();
        for (Method m : ServiceLoader.load(Method.class, cl)) {
            Method previous = found.putIfAbsent(m.id(), m);
            if (previous != null && previous.getClass() != m.getClass()) {
                throw new FsilException("two plugins use the method id '" + m.id() + "': " + previous.getClass().getName()
                        + " and " + m.getClass().getName() + ". Method ids must be unique.");
            }
        }
        return found.values();
    }

    /** Adds a method; an id that is already taken by another method is an error. */
    public synchronized MethodRegistry register(Method m) {
        if (m.id() == null || !m.id().matches("[a-z][a-z0-9-]*")) {
            throw new FsilException("method id '" + m.id() + "' is invalid: use lower-case letters, digits and '-'");
        }
        Method previous = methods.get(m.id());
        if (previous != null && previous != m) {
            throw new FsilException("method id '" + m.id() + "' is already registered by " + previous.getClass().getName());
        }
        methods.put(m.id(), m);
        return this;
    }

    /** The method with this id; an unknown id throws with the list of known ones. */
    public synchronized Method get(String id) {
        Method m = methods.get(id);
        if (m == null) {
            throw new FsilException("unknown method '" + id + "'. Known methods: " + String.join(", ", methods.keySet())
                    + ". Run 'fsil methods' to see them with their parameters.");
        }
        return m;
    }

    public synchronized boolean contains(String id) {
        return methods.containsKey(id);
    }

    /** All methods sorted by id. */
    public synchronized Collection<Method> all() {
        return Collections.unmodifiableCollection(new TreeMap<>(methods).values());
    }
}
