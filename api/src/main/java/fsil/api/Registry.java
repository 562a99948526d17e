package fsil.api;


import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The plugins of one kind (methods, datasets, protocols, metrics, benchmarks) by id, with the one validation
 * path every registration goes through: an id is a lower-case letter followed by lower-case letters, digits, '-'
 * and '_' (metric names such as {@code episode_acc} use '_'; the conformance kit holds method ids to letters, digits
 * and '-'); two plugins may not share an id; an unknown id is an error that lists the known ones and suggests the
 * closest. Thread-safe.
 *
 * @param <T> the plugin interface
 */
public final class Registry<T> {
    private final String kind;
    private final Function<T, String> id;
    private final Map<String, T> plugins = new TreeMap<>();

    /**
     * @param kind what the plugins are, for messages, e.g. {@code "method"}
     * @param id   a plugin's id
     */
    public Registry(String kind, Function<T, String> id) {
        this.kind = kind;
        this.id = id;
    }

    /** A registry of what {@link ServiceLoader} finds for {@code type} on the context class loader. */
    public static <T> Registry<T> discover(String kind, Class<T> type, Function<T, String> id) {
        Registry<T> r = new Registry<>(kind, id);
        r.registerAll(load(type));
        return r;
    }

    /**
     * What {@link ServiceLoader} finds for {@code type} on the context class loader (or this class's); a provider
     * class listed twice (e.g. its jar is on the class path twice) counts once.
     */
    public static <T> List<T> load(Class<T> type) {
        ClassLoader cl = Thread.currentThread().getContextClassLoader();
        List<T> out = new ArrayList<>();
        java.util.Set<Class<?>> seen = new java.util.HashSet<>();
        for (T t : ServiceLoader.load(type, cl != null ? cl : Registry.class.getClassLoader())) {
            if (seen.add(t.getClass())) {
                out.add(t);
            }
        }
        return out;
    }

    /** Adds a plugin; an invalid id, or an id taken by another plugin, is an error. */
    public synchronized Registry<T> register(T plugin) {
        String key = requireValidId(kind, id.apply(plugin), plugin.getClass());
        T previous = plugins.get(key);
        if (previous != null && previous != plugin) {
            throw new FsilException(kind + " id '" + key + "' is already registered by " + previous.getClass().getName()
                    + (previous.getClass() == plugin.getClass() ? "" : "; " + plugin.getClass().getName()
                    + " cannot use it too") + ". Ids must be unique.");
        }
        plugins.put(key, plugin);
        return this;
    }

    /**
     * The id rule of every plugin kind (see above): returns {@code key} when it is a lower-case letter followed by
     * lower-case letters, digits, '-' and '_', and throws otherwise, naming the kind and the plugin's class. Used by
     * {@link #register} and by {@link AbstractPlugin}'s constructor, so a plugin with a bad id fails when it is made.
     */
    public static String requireValidId(String kind, String key, Class<?> owner) {
        if (key == null || !key.matches("[a-z][a-z0-9_-]*")) {
            throw new FsilException(kind + " id '" + key + "' of " + owner.getName()
                    + " is invalid: use lower-case letters, digits, '-' and '_', starting with a letter");
        }
        return key;
    }

    public synchronized Registry<T> registerAll(Collection<? extends T> all) {
        for (T t : all) {
            register(t);
        }
        return this;
    }

    /** The plugin with this id; an unknown id throws with the known ones and the closest of them. */
    public synchronized T get(String key) {
        T t = plugins.get(key);
        if (t == null) {
            String closest = closest(key, plugins.keySet());
            throw new FsilException("unknown " + kind + " '" + key + "'" + (closest == null ? "" : " (did you mean '"
                    + closest + "'?)") + ". Known " + kind + "s: " + String.join(", ", plugins.keySet()));
        }
        return t;
    }

    public synchronized boolean contains(String key) {
        return plugins.containsKey(key);
    }

    /** All plugins sorted by id. */
    public synchronized List<T> all() {
        return List.copyOf(plugins.values());
    }

    public synchronized List<String> ids() {
        return List.copyOf(plugins.keySet());
    }

    /** The candidate within edit distance 2 (or a third of the word) of {@code word}, or null. */
    public static String closest(String word, Collection<String> candidates) {
        if (word == null) {
            return null;
        }
        int limit = Math.max(2, word.length() / 3);
        return candidates.stream().filter(c -> editDistance(word, c) <= limit)
                .min(Comparator.comparingInt((String c) -> editDistance(word, c)).thenComparing(c -> c))
                .orElse(null);
    }

    /** Levenshtein distance. */
    static int editDistance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int sub = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                cur[j] = Math.min(sub, Math.min(prev[j] + 1, cur[j - 1] + 1));
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
