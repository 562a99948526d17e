package fsil.api;

import java.util.List;
import java.util.Objects;

/**
 * The usual way to write a plugin of any kind: the id, the one-line description and the parameters are given once, to
 * the constructor, instead of one getter each. A plugin class extends this and implements its kind's interface, and
 * keeps the public no-argument constructor that {@link java.util.ServiceLoader} and the application's injector call:
 *
 * <pre>{@code
 * public final class MyProtocol extends AbstractPlugin implements Protocol {
 *     static final Param<Integer> RUNS = Param.integer("runs", 1, 1, 100_000, "independent runs");
 *
 *     public MyProtocol() {
 *         super("my-protocol", "what it is, in one line", List.of(RUNS));
 *     }
 *     ...
 * }
 * }</pre>
 *
 * <p>The constructor checks what it is given, so a mistake fails when the plugin is made rather than when it is
 * listed or run: the id must follow the rule of every plugin id ({@link Registry#requireValidId}; a description
 * given in its place, with spaces or capitals, fails it too), the description must be one non-blank line, and no
 * two parameters may share a name. The parameters keep their order (the order {@code fsil <kind>s} lists them in).
 * {@link #kind()} names the plugin in those messages; it is called from this constructor, so an override must
 * return a constant (the interfaces' defaults do).
 *
 * <p>This class is a convenience, not a requirement: a plugin that implements {@link Plugin} (or {@link Method},
 * or any other kind's interface) directly, with its own getters, works exactly as before.
 */
public abstract class AbstractPlugin implements Plugin {
    private final String id;
    private final String description;
    private final List<Param<?>> parameters;

    /**
     * @param id          stable lower-case id, as the command line writes it, e.g. {@code ncm}
     * @param description one line saying what the plugin is
     * @param parameters  the declared parameters in the order they are listed ({@code List.of()} for none)
     * @throws FsilException         for an invalid id or a missing, blank or multi-line description
     * @throws IllegalStateException when two parameters share a name
     */
    protected AbstractPlugin(String id, String description, List<Param<?>> parameters) {
        this.id = Registry.requireValidId(kind(), id, getClass());
        if (description == null || description.isBlank() || description.contains("\n")
                || description.contains("\r")) {
            throw new FsilException(kind() + " " + id + " (" + getClass().getName() + ") needs a description: one "
                    + "non-blank line saying what it is; got " + (description == null ? "null" : "'" + description + "'"));
        }
        this.description = description;
        this.parameters = List.copyOf(Objects.requireNonNull(parameters, "parameters (List.of() for none)"));
        Params.defaults(kind() + " " + id, this.parameters);
    }

    @Override
    public final String id() {
        return id;
    }

    @Override
    public final String description() {
        return description;
    }

    @Override
    public final List<Param<?>> parameters() {
        return parameters;
    }
}
