package io.github.gatlingllm.levels;

import io.github.gatlingllm.levels.Injection.Step;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * When each virtual user of an open injection profile is due: the offset of the {@code k}-th user
 * (in injection order, from 0) from the start of the scenario's injection, exactly as Gatling 3.16
 * spaces its arrivals ({@code OpenInjectionStep.chain} in {@code gatling-core}).
 *
 * <p>What Gatling does, step by step (each step's offsets are shifted by the durations of the steps
 * before it; a duration counts in whole seconds where Gatling takes {@code toSeconds}):
 *
 * <ul>
 *   <li>{@code atOnceUsers(n)}: {@code n} users at 0.
 *   <li>{@code rampUsers(n).during(d)}: the {@code n} users shared over the whole seconds of {@code
 *       d} (second {@code s} gets {@code ceil(n/S*(s+1)) - ceil(n/S*s)}, the last second the rest),
 *       then each second's users over its 1000 milliseconds the same way; a {@code d} under one
 *       second injects no one (as Gatling), 0 injects all at once.
 *   <li>{@code constantUsersPerSec(r).during(d)}: {@code round(S * r)} users ramped over {@code d}.
 *   <li>{@code rampUsersPerSec(r1).to(r2).during(d)}: second {@code s} gets the integer part (at 10
 *       decimals, half up) of {@code (r2-r1)/(2S)*(2s+1) + r1} plus the fraction carried from the
 *       seconds before, in Scala's {@code BigDecimal} (34 digits), spread over its milliseconds.
 *   <li>{@code stressPeakUsers(n).during(d)}: user {@code i} (1..n) at {@code (long) (k * (t_i +
 *       t0))} ms with {@code t_i = erfinv(2i/(n+2) - 1)}, {@code t0 = |t_1|}, {@code k = d/(2*t0)}.
 *   <li>{@code ...randomized()} (Poisson): Gatling's own draw, replayed from the step's seed
 *       (sorted uniforms from a {@link SplittableRandom}, the inverse CDF of the ramped rate).
 *   <li>{@code nothingFor(d)}: no one.
 * </ul>
 *
 * <p>Gatling starts a user at its offset in whole milliseconds after the injection's start (an
 * event-loop task scheduled that far ahead), so offsets here are whole milliseconds.
 *
 * <p>Immutable once built; thread-safe (Poisson steps are replayed once, on first use, under a
 * lock).
 */
public final class InjectionSchedule {

  private final String scenario;
  private final List<Segment> segments;
  private final long users;

  private InjectionSchedule(String scenario, List<Segment> segments) {
    this.scenario = scenario;
    this.segments = segments;
    long n = 0;
    for (Segment s : segments) {
      n += s.users();
    }
    this.users = n;
  }

  /**
   * The schedule of an open profile.
   *
   * @param injection an open profile, never null
   * @return its schedule
   * @throws IllegalArgumentException if the profile is closed (a closed loop has no schedule: a
   *     user starts when another ends)
   */
  public static InjectionSchedule of(Injection injection) {
    Objects.requireNonNull(injection, "injection");
    if (injection.closed()) {
      throw new IllegalArgumentException(
          "scenario " + injection.scenario() + ": a closed profile has no arrival schedule");
    }
    List<Segment> segments = new ArrayList<>();
    long base = 0;
    for (Step step : injection.steps()) {
      Segment s = segment(step, base);
      if (s != null && s.users() > 0) {
        segments.add(s);
      }
      base += step.durationMs();
    }
    return new InjectionSchedule(injection.scenario(), List.copyOf(segments));
  }

  /**
   * The scenario's name.
   *
   * @return never null
   */
  public String scenario() {
    return scenario;
  }

  /**
   * How many users Gatling injects with this profile.
   *
   * @return at least 0
   */
  public long users() {
    return users;
  }

  /**
   * The offset of a user from the start of the scenario's injection.
   *
   * @param k the user's rank in injection order, from 0
   * @return whole milliseconds, at least 0; non-decreasing in {@code k}
   * @throws IndexOutOfBoundsException if {@code k} is negative or at least {@link #users()}
   */
  public long offsetMs(long k) {
    if (k < 0 || k >= users) {
      throw new IndexOutOfBoundsException(
          "user " + k + " of scenario " + scenario + ", which injects " + users);
    }
    long j = k;
    for (Segment s : segments) {
      if (j < s.users()) {
        return s.base() + s.offsetMs(j);
      }
      j -= s.users();
    }
    throw new IllegalStateException("unreachable: user " + k + " of " + users);
  }

  private static Segment segment(Step step, long base) {
    long d = step.durationMs();
    int seconds = (int) (d / 1000);
    switch (step.type()) {
      case AT_ONCE_USERS:
        return new AtOnce(base, (long) step.from());
      case RAMP_USERS:
        return ramp(base, (long) step.from(), d);
      case CONSTANT_USERS_PER_SEC:
        return step.from() == 0 ? null : ramp(base, Math.round(seconds * step.from()), d);
      case RAMP_USERS_PER_SEC:
        if (step.from() == 0 && step.to() == 0 || seconds == 0) {
          // Gatling divides by the whole seconds: a rate ramp under a second injects no one.
          return null;
        }
        return new PerSecond(base, rampRateSeconds(step.from(), step.to(), seconds));
      case STRESS_PEAK_USERS:
        long n = (long) step.from();
        if (n == 0) {
          return null;
        }
        return d == 0 ? new AtOnce(base, n) : new Heaviside(base, n, d);
      case POISSON_USERS_PER_SEC:
        if (step.from() == 0 && step.to() == 0) {
          return null;
        }
        return new Poisson(base, step.from(), step.to(), seconds, step.seed());
      case NOTHING_FOR:
        return null;
      default:
        throw new IllegalArgumentException("scenario step " + step.type() + " is not open");
    }
  }

  /** Gatling's {@code RampOpenInjection}: users shared over the whole seconds, then the ms. */
  private static Segment ramp(long base, long users, long durationMs) {
    if (users == 0) {
      return null;
    }
    if (durationMs == 0) {
      return new AtOnce(base, users);
    }
    int seconds = (int) (durationMs / 1000);
    int[] perSecond = new int[seconds];
    for (int s = 0; s < seconds; s++) {
      perSecond[s] = (int) (sumFromZero(users, seconds, s) - sumFromZero(users, seconds, s - 1));
    }
    return new PerSecond(base, perSecond);
  }

  /** Gatling's {@code RampRateOpenInjection}: each second's users, carrying the fractions. */
  private static int[] rampRateSeconds(double startRate, double endRate, int seconds) {
    MathContext mc = MathContext.DECIMAL128;
    BigDecimal start = decimal(startRate);
    BigDecimal a =
        decimal(endRate)
            .subtract(start, mc)
            .divide(new BigDecimal(2 * seconds), mc); // Scala's BigDecimal(Int)
    BigDecimal pending = decimal(0.0);
    int[] perSecond = new int[seconds];
    for (int s = 0; s < seconds; s++) {
      BigDecimal users = a.multiply(new BigDecimal(2 * s + 1), mc).add(start, mc).add(pending, mc);
      int whole = users.setScale(10, RoundingMode.HALF_UP).intValue();
      pending = users.subtract(new BigDecimal(whole), mc);
      perSecond[s] = Math.max(0, whole);
    }
    return perSecond;
  }

  /** Scala's {@code BigDecimal(d: Double)}: the decimal of {@link Double#toString(double)}. */
  private static BigDecimal decimal(double d) {
    return new BigDecimal(Double.toString(d), MathContext.DECIMAL128);
  }

  /** Gatling's {@code Shard.sumFromZero}: the users in buckets 0..bucket. */
  static long sumFromZero(long total, int buckets, int bucket) {
    if (bucket == -1) {
      return 0;
    }
    if (bucket == buckets - 1) {
      return total;
    }
    return (long) Math.ceil((double) total / buckets * (bucket + 1));
  }

  /** A step's users, from the step's start. */
  private abstract static class Segment {
    private final long base;

    Segment(long base) {
      this.base = base;
    }

    long base() {
      return base;
    }

    abstract long users();

    /** The offset of the step's {@code j}-th user, {@code 0 <= j < users()}, from its start. */
    abstract long offsetMs(long j);
  }

  private static final class AtOnce extends Segment {
    private final long users;

    AtOnce(long base, long users) {
      super(base);
      this.users = users;
    }

    @Override
    long users() {
      return users;
    }

    @Override
    long offsetMs(long j) {
      return 0;
    }
  }

  /** Users per whole second, each second's users over its 1000 ms ({@code Shard.shards}). */
  private static final class PerSecond extends Segment {
    private final int[] perSecond;
    private final long[] before;
    private final long users;

    PerSecond(long base, int[] perSecond) {
      super(base);
      this.perSecond = perSecond;
      this.before = new long[perSecond.length];
      long n = 0;
      for (int s = 0; s < perSecond.length; s++) {
        before[s] = n;
        n += perSecond[s];
      }
      this.users = n;
    }

    @Override
    long users() {
      return users;
    }

    @Override
    long offsetMs(long j) {
      // The last second whose users begin at or before j (seconds without users are skipped).
      int lo = 0;
      int hi = before.length - 1;
      while (lo < hi) {
        int mid = (lo + hi + 1) >>> 1;
        if (before[mid] <= j) {
          lo = mid;
        } else {
          hi = mid - 1;
        }
      }
      while (perSecond[lo] == 0 || j - before[lo] >= perSecond[lo]) {
        lo++;
      }
      long inSecond = j - before[lo];
      int count = perSecond[lo];
      // The first millisecond whose running total passes inSecond.
      int m0 = 0;
      int m1 = 999;
      while (m0 < m1) {
        int mid = (m0 + m1) >>> 1;
        if (sumFromZero(count, 1000, mid) > inSecond) {
          m1 = mid;
        } else {
          m0 = mid + 1;
        }
      }
      return lo * 1000L + m0;
    }
  }

  /** Gatling's {@code HeavisideOpenInjection} ({@code stressPeakUsers}). */
  private static final class Heaviside extends Segment {
    private final long users;
    private final double t0;
    private final double k;

    Heaviside(long base, long users, long durationMs) {
      super(base);
      this.users = users;
      this.t0 = Math.abs(inverse(1));
      this.k = durationMs / (t0 * 2);
    }

    private double inverse(long u) {
      double x = (double) u / (users + 2);
      return Erf.erfinv(2 * x - 1);
    }

    @Override
    long users() {
      return users;
    }

    @Override
    long offsetMs(long j) {
      return (long) (k * (inverse(j + 1) + t0));
    }
  }

  /** Gatling's {@code PoissonOpenInjection}, replayed from its seed once, on first use. */
  private static final class Poisson extends Segment {
    private final double startRate;
    private final double endRate;
    private final double durationSec;
    private final long seed;
    private final long users;
    private long[] offsets;

    Poisson(long base, double startRate, double endRate, int seconds, long seed) {
      super(base);
      this.startRate = startRate;
      this.endRate = endRate;
      this.durationSec = seconds;
      this.seed = seed;
      this.users = (long) ((startRate + endRate) / 2.0 * durationSec);
    }

    @Override
    long users() {
      return users;
    }

    @Override
    synchronized long offsetMs(long j) {
      if (offsets == null) {
        offsets = replay();
      }
      return offsets[(int) j];
    }

    private long[] replay() {
      if (users > Integer.MAX_VALUE - 8) {
        throw new IllegalArgumentException("a Poisson step of " + users + " users is too many");
      }
      long[] out = new long[(int) users];
      SplittableRandom random = new SplittableRandom(seed);
      double dr = endRate - startRate;
      double r1Sq = startRate * startRate;
      double r2Sq = endRate * endRate;
      double dOverDr = durationSec / dr;
      double u = 0.0;
      for (int k = 0; k < users; k++) {
        u = 1.0 - (1.0 - u) * Math.pow(random.nextDouble(), 1.0 / (users - k));
        double seconds =
            dr == 0.0
                ? Math.min(u * durationSec, durationSec)
                : Math.min(
                    dOverDr * (Math.sqrt((1.0 - u) * r1Sq + u * r2Sq) - startRate), durationSec);
        // Scala's seconds -> FiniteDuration (rounded to the nanosecond) -> toMillis (truncated)
        out[k] = Math.round(1_000_000_000L * seconds) / 1_000_000L;
      }
      return out;
    }
  }

  /** Gatling's {@code Erf.erfinv}, the same rational approximations in the same order. */
  static final class Erf {
    private static final double[] P1 = {
      0.160304955844066229311e2,
      -0.90784959262960326650e2,
      0.18644914861620987391e3,
      -0.16900142734642382420e3,
      0.6545466284794487048e2,
      -0.864213011587247794e1,
      0.1760587821390590
    };
    private static final double[] Q1 = {
      0.147806470715138316110e2,
      -0.91374167024260313396e2,
      0.21015790486205317714e3,
      -0.22210254121855132366e3,
      0.10760453916055123830e3,
      -0.206010730328265443e2,
      0.1e1
    };
    private static final double[] P2 = {
      -0.152389263440726128e-1,
      0.3444556924136125216,
      -0.29344398672542478687e1,
      0.11763505705217827302e2,
      -0.22655292823101104193e2,
      0.19121334396580330163e2,
      -0.5478927619598318769e1,
      0.237516689024448000
    };
    private static final double[] Q2 = {
      -0.108465169602059954e-1,
      0.2610628885843078511,
      -0.24068318104393757995e1,
      0.10695129973387014469e2,
      -0.23716715521596581025e2,
      0.24640158943917284883e2,
      -0.10014376349783070835e2,
      0.1e1
    };
    private static final double[] P3 = {
      0.56451977709864482298e-4,
      0.53504147487893013765e-2,
      0.12969550099727352403,
      0.10426158549298266122e1,
      0.28302677901754489974e1,
      0.26255672879448072726e1,
      0.20789742630174917228e1,
      0.72718806231556811306,
      0.66816807711804989575e-1,
      -0.17791004575111759979e-1,
      0.22419563223346345828e-2
    };
    private static final double[] Q3 = {
      0.56451699862760651514e-4,
      0.53505587067930653953e-2,
      0.12986615416911646934,
      0.10542932232626491195e1,
      0.30379331173522206237e1,
      0.37631168536405028901e1,
      0.38782858277042011263e1,
      0.20372431817412177929e1,
      0.1e1
    };

    private Erf() {}

    /** Scala's {@code p.reduceRight((c, v) => v * x + c)}: Horner from the last coefficient. */
    private static double polynom(double[] p, double x) {
      double v = p[p.length - 1];
      for (int i = p.length - 2; i >= 0; i--) {
        v = v * x + p[i];
      }
      return v;
    }

    private static double positive(double u) {
      if (u >= 1.0) {
        return Double.MAX_VALUE;
      }
      if (u <= 0.75) {
        double t = u * u - 0.5625;
        return (polynom(P1, t) / polynom(Q1, t)) * u;
      }
      if (u <= 0.9375) {
        double t = u * u - 0.87890625;
        return (polynom(P2, t) / polynom(Q2, t)) * u;
      }
      double t = 1.0 / Math.sqrt(-Math.log(1.0 - u));
      return (polynom(P3, t) / polynom(Q3, t)) / t;
    }

    static double erfinv(double n) {
      if (!(Math.abs(n) <= 1.0)) {
        throw new IllegalArgumentException("n=" + n + " is not in [-1, 1]");
      }
      return n < 0.0 ? -positive(-n) : positive(n);
    }
  }
}
