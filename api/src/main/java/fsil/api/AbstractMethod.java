package fsil.api;

import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The usual way to write a {@link Method}: id, description, reference, capabilities and parameters given once, to
 * the constructor, in the order {@code fsil methods} lists them; the class adds the public no-argument constructor
 * that {@link java.util.ServiceLoader} calls, and what the method does ({@link #learner}, and optionally
 * {@link #needsBaseClasses}, {@link #objective}):
 *
 * <pre>{@code
 * public final class MyMethod extends AbstractMethod {
 *     static final Param<Double> SHRINK = Param.real("shrink", 0.2, 0.0, 0.95, "pull towards the grand mean");
 *
 *     public MyMethod() {
 *         super("my-method", "what it is, in one line", "Author et al., Venue 2024",
 *                 EnumSet.of(Capability.INDUCTIVE_FEWSHOT), List.of(SHRINK));
 *     }
 *
 *     public Learner learner(Params params, Background background) { ... }
 * }
 * }</pre>
 *
 * <p>Checks as {@link AbstractPlugin} does, and also that the reference is given ("" for a plain baseline) and that
 * there is at least one capability. {@link #capabilities()} is unmodifiable and iterates in the enum's order.
 * Implementing {@link Method} directly still works: this class only saves the getters.
 */
public abstract class AbstractMethod extends AbstractPlugin implements Method {
    private final String reference;
    private final Set<Capability> capabilities;

    /**
     * @param id           stable lower-case id (letters, digits, '-'), e.g. {@code ncm}
     * @param description  one line saying what the method is
     * @param reference    the paper it comes from (short citation), or "" for a plain baseline
     * @param capabilities the task kinds it supports, at least one
     * @param parameters   the declared parameters in the order they are listed ({@code List.of()} for none)
     * @throws FsilException         for an invalid id, a bad description, a null reference or no capability
     * @throws IllegalStateException when two parameters share a name
     */
    protected AbstractMethod(String id, String description, String reference, Set<Capability> capabilities,
                             List<Param<?>> parameters) {
        super(id, description, parameters);
        if (reference == null) {
            throw new FsilException("method " + id + " (" + getClass().getName() + ") needs a reference: the paper it "
                    + "comes from, or \"\" for a plain baseline");
        }
        if (capabilities == null || capabilities.isEmpty()) {
            throw new FsilException("method " + id + " (" + getClass().getName() + ") must declare at least one "
                    + "capability (the task kinds it supports)");
        }
        this.reference = reference;
        this.capabilities = Collections.unmodifiableSet(EnumSet.copyOf(Objects.requireNonNull(capabilities)));
    }

    @Override
    public final String reference() {
        return reference;
    }

    @Override
    public final Set<Capability> capabilities() {
        return capabilities;
    }
}
