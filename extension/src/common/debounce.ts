/** Debouncing: a burst of calls runs the function once, `ms` after the last call, with its arguments. */

export interface Debounced<A extends unknown[]> {
    (...args: A): void;
    /** Drop a pending call. */
    cancel(): void;
    /** Whether a call is waiting. */
    readonly pending: boolean;
}

export function debounce<A extends unknown[]>(fn: (...args: A) => void, ms: number): Debounced<A> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const debounced = (...args: A): void => {
        if (timer !== undefined) {
            clearTimeout(timer);
        }
        timer = setTimeout(() => {
            timer = undefined;
            fn(...args);
        }, ms);
    };
    return Object.defineProperties(debounced, {
        cancel: {
            value: (): void => {
                if (timer !== undefined) {
                    clearTimeout(timer);
                    timer = undefined;
                }
            },
        },
        pending: { get: (): boolean => timer !== undefined },
    }) as Debounced<A>;
}
