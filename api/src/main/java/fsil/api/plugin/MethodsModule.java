package fsil.api.plugin;

import com.google.inject.AbstractModule;
import com.google.inject.multibindings.MapBinder;
import fsil.api.FsilException;
import fsil.api.Method;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Guice wiring of the method plugins: a {@code MapBinder<String, Method>} filled with what
 * {@link java.util.ServiceLoader} finds plus any methods passed in (the programmatic registration path, e.g.
 * a method defined in a notebook cell). Inject {@link MethodRegistry} or {@code Map<String, Method>}.
 *
 * <pre>{@code
 * MethodRegistry methods = Guice.createInjector(new MethodsModule(new MyMethod())).getInstance(MethodRegistry.class);
 * }</pre>
 */
public final class MethodsModule extends AbstractModule {
    private final Map<String, Method> methods = new LinkedHashMap<>();

    /** ServiceLoader discovery plus the given methods. */
    public MethodsModule(Method... extra) {
        this(true, extra);
    }

    /**
     * @param discover whether to add the methods ServiceLoader finds
     * @throws FsilException if two different methods use the same id
     */
    public MethodsModule(boolean discover, Method... extra) {
        List<Method> all = new ArrayList<>();
        if (discover) {
            all.addAll(MethodRegistry.discoverAll());
        }
        all.addAll(List.of(extra));
        for (Method m : all) {
            Method previous = methods.putIfAbsent(m.id(), m);
            if (previous != null && previous.getClass() != m.getClass()) {
                throw new FsilException("two methods use the id '" + m.id() + "': " + previous.getClass().getName()
                        + " and " + m.getClass().getName() + ". Ids must be unique.");
            }
        }
    }

    @Override
    protected void configure() {
        MapBinder<String, Method> binder = MapBinder.newMapBinder(binder(), String.class, Method.class);
        methods.forEach((id, m) -> binder.addBinding(id).toInstance(m));
        bind(MethodRegistry.class).asEagerSingleton();
    }
}
