/** The baselines' activity: does nothing. */
export const benchActivities = {
  noop(): Promise<void> {
    return Promise.resolve();
  },
};
