import { testProjects } from '../../vitest.shared.js';

export default testProjects();
