export { createDashboard, type Dashboard, type DashboardOptions } from './dashboard/server.js';
