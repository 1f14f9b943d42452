import { configure } from '@testing-library/react'

// Loaded after the test framework (setupFilesAfterEnv), so Testing Library still registers its cleanup after each test.
// findBy*/waitFor give up after 1 s by default; on two busy cores a dialog's lazy chunk and formik's validation can
// take longer than that, and the test then fails for the machine, not the app. What they wait for is unchanged.
configure({ asyncUtilTimeout: 5_000 })
